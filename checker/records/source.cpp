// Byte sources for the record reader: a file, standard input or memory, plain or
// compressed with zstd, gzip or bzip2, told by the first bytes (not the name).
#include <bzlib.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <cerrno>
#include <cstring>

#include "pgn.hpp"

namespace arb::records {

namespace {

// A file descriptor (or bytes in memory) with the first bytes read ahead, so that the
// format can be told from its magic number.
class RawSource : public ByteSource {
 public:
  RawSource(int fd, std::string name, bool own, uint64_t* consumed = nullptr)
      : fd_(fd), own_(own), name_(std::move(name)), consumed_(consumed) {}
  explicit RawSource(std::string bytes) : mem_(std::move(bytes)), in_memory_(true) {}
  ~RawSource() override {
    if (own_ && fd_ >= 0) ::close(fd_);
  }
  size_t read(char* buf, size_t n) override {
    if (in_memory_) {
      size_t k = std::min(n, mem_.size() - mem_pos_);
      std::memcpy(buf, mem_.data() + mem_pos_, k);
      mem_pos_ += k;
      return k;
    }
    for (;;) {
      ssize_t k = ::read(fd_, buf, n);
      if (k >= 0) {
        if (consumed_) *consumed_ += static_cast<uint64_t>(k);
        return static_cast<size_t>(k);
      }
      if (errno == EINTR) continue;
      throw InputError(name_ + ": read error: " + std::strerror(errno));
    }
  }

 private:
  int fd_ = -1;
  bool own_ = false;
  std::string name_;
  uint64_t* consumed_ = nullptr;
  std::string mem_;
  size_t mem_pos_ = 0;
  bool in_memory_ = false;
};

// Bytes already read (the magic number) in front of a source.
class PrefixSource : public ByteSource {
 public:
  PrefixSource(std::string prefix, std::unique_ptr<ByteSource> rest)
      : prefix_(std::move(prefix)), rest_(std::move(rest)) {}
  size_t read(char* buf, size_t n) override {
    if (pos_ < prefix_.size()) {
      size_t k = std::min(n, prefix_.size() - pos_);
      std::memcpy(buf, prefix_.data() + pos_, k);
      pos_ += k;
      return k;
    }
    return rest_->read(buf, n);
  }

 private:
  std::string prefix_;
  size_t pos_ = 0;
  std::unique_ptr<ByteSource> rest_;
};

// A zstd stream (one or more frames), decompressed as it is read.
class ZstdSource : public ByteSource {
 public:
  ZstdSource(std::unique_ptr<ByteSource> in, std::string name)
      : in_(std::move(in)), name_(std::move(name)), dctx_(ZSTD_createDCtx()), inbuf_(ZSTD_DStreamInSize()) {
    if (!dctx_) throw InputError(name_ + ": cannot start zstd");
  }
  ~ZstdSource() override { ZSTD_freeDCtx(dctx_); }
  size_t read(char* buf, size_t n) override {
    ZSTD_outBuffer out{buf, n, 0};
    while (out.pos == 0) {
      if (in_pos_ == in_size_) {
        in_size_ = in_->read(inbuf_.data(), inbuf_.size());
        in_pos_ = 0;
        if (in_size_ == 0) {
          if (!frame_done_) throw InputError(name_ + ": truncated zstd stream");
          return 0;
        }
      }
      ZSTD_inBuffer inb{inbuf_.data(), in_size_, in_pos_};
      size_t r = ZSTD_decompressStream(dctx_, &out, &inb);
      in_pos_ = inb.pos;
      if (ZSTD_isError(r)) throw InputError(name_ + ": corrupt zstd data: " + ZSTD_getErrorName(r));
      frame_done_ = r == 0;
    }
    return out.pos;
  }

 private:
  std::unique_ptr<ByteSource> in_;
  std::string name_;
  ZSTD_DCtx* dctx_;
  std::vector<char> inbuf_;
  size_t in_pos_ = 0, in_size_ = 0;
  bool frame_done_ = true;
};

// A gzip stream (one or more members, as `cat a.gz b.gz` makes), inflated as it is read.
class GzipSource : public ByteSource {
 public:
  GzipSource(std::unique_ptr<ByteSource> in, std::string name) : in_(std::move(in)), name_(std::move(name)) {
    if (inflateInit2(&z_, 15 + 32) != Z_OK) throw InputError(name_ + ": cannot start gzip");
  }
  ~GzipSource() override { inflateEnd(&z_); }
  size_t read(char* buf, size_t n) override {
    z_.next_out = reinterpret_cast<Bytef*>(buf);
    z_.avail_out = static_cast<uInt>(std::min<size_t>(n, UINT32_MAX));
    while (z_.avail_out == static_cast<uInt>(std::min<size_t>(n, UINT32_MAX))) {
      if (z_.avail_in == 0) {
        size_t k = in_->read(inbuf_, sizeof inbuf_);
        if (k == 0) {
          if (!member_done_) throw InputError(name_ + ": truncated gzip stream");
          break;
        }
        z_.next_in = reinterpret_cast<Bytef*>(inbuf_);
        z_.avail_in = static_cast<uInt>(k);
      }
      if (member_done_) {  // the next member
        inflateReset(&z_);
        member_done_ = false;
      }
      int rc = inflate(&z_, Z_NO_FLUSH);
      if (rc == Z_STREAM_END) {
        member_done_ = true;
      } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
        throw InputError(name_ + ": corrupt gzip data" +
                         (z_.msg ? std::string(": ") + z_.msg : std::string()));
      }
    }
    return static_cast<size_t>(reinterpret_cast<char*>(z_.next_out) - buf);
  }

 private:
  std::unique_ptr<ByteSource> in_;
  std::string name_;
  z_stream z_{};
  char inbuf_[1 << 16];
  bool member_done_ = false;
};

// A bzip2 stream (one or more streams, as pbzip2 writes), decompressed as it is read.
class Bzip2Source : public ByteSource {
 public:
  Bzip2Source(std::unique_ptr<ByteSource> in, std::string name) : in_(std::move(in)), name_(std::move(name)) {
    if (BZ2_bzDecompressInit(&z_, 0, 0) != BZ_OK) throw InputError(name_ + ": cannot start bzip2");
  }
  ~Bzip2Source() override { BZ2_bzDecompressEnd(&z_); }
  size_t read(char* buf, size_t n) override {
    const unsigned int want = static_cast<unsigned int>(std::min<size_t>(n, UINT32_MAX));
    z_.next_out = buf;
    z_.avail_out = want;
    while (z_.avail_out == want) {
      if (z_.avail_in == 0) {
        size_t k = in_->read(inbuf_, sizeof inbuf_);
        if (k == 0) {
          if (!stream_done_) throw InputError(name_ + ": truncated bzip2 stream");
          break;
        }
        z_.next_in = inbuf_;
        z_.avail_in = static_cast<unsigned int>(k);
      }
      if (stream_done_) {  // the next stream
        char* next_in = z_.next_in;
        unsigned int avail = z_.avail_in;
        BZ2_bzDecompressEnd(&z_);
        z_ = bz_stream{};
        if (BZ2_bzDecompressInit(&z_, 0, 0) != BZ_OK) throw InputError(name_ + ": cannot start bzip2");
        z_.next_in = next_in;
        z_.avail_in = avail;
        z_.next_out = buf;
        z_.avail_out = want;
        stream_done_ = false;
      }
      int rc = BZ2_bzDecompress(&z_);
      if (rc == BZ_STREAM_END)
        stream_done_ = true;
      else if (rc != BZ_OK)
        throw InputError(name_ + ": corrupt bzip2 data (error " + std::to_string(rc) + ")");
    }
    return want - z_.avail_out;
  }

 private:
  std::unique_ptr<ByteSource> in_;
  std::string name_;
  bz_stream z_{};
  char inbuf_[1 << 16];
  bool stream_done_ = false;
};

std::unique_ptr<ByteSource> detect(std::unique_ptr<ByteSource> raw, const std::string& name) {
  std::string head(4, '\0');
  size_t got = 0;
  while (got < 4) {
    size_t k = raw->read(head.data() + got, 4 - got);
    if (k == 0) break;
    got += k;
  }
  head.resize(got);
  bool zstd = got == 4 && static_cast<unsigned char>(head[0]) == 0x28 &&
              static_cast<unsigned char>(head[1]) == 0xB5 && static_cast<unsigned char>(head[2]) == 0x2F &&
              static_cast<unsigned char>(head[3]) == 0xFD;
  const bool gzip =
      got >= 2 && static_cast<unsigned char>(head[0]) == 0x1F && static_cast<unsigned char>(head[1]) == 0x8B;
  const bool bzip2 =
      got >= 4 && head[0] == 'B' && head[1] == 'Z' && head[2] == 'h' && head[3] >= '1' && head[3] <= '9';
  auto src = std::make_unique<PrefixSource>(std::move(head), std::move(raw));
  if (zstd) return std::make_unique<ZstdSource>(std::move(src), name);
  if (gzip) return std::make_unique<GzipSource>(std::move(src), name);
  if (bzip2) return std::make_unique<Bzip2Source>(std::move(src), name);
  return src;
}

}  // namespace

std::unique_ptr<ByteSource> open_source(const std::string& path, uint64_t* consumed) {
  if (path == "-") return detect(std::make_unique<RawSource>(0, "standard input", false), "standard input");
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw InputError(path + ": cannot open: " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
    ::close(fd);
    throw InputError(path + ": is a directory");
  }
  if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
    ::close(fd);
    throw InputError(path + ": not a regular file");
  }
  return detect(std::make_unique<RawSource>(fd, path, true, consumed), path);
}

std::unique_ptr<ByteSource> memory_source(std::string bytes) {
  return detect(std::make_unique<RawSource>(std::move(bytes)), "input");
}

}  // namespace arb::records
