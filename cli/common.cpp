#include "common.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>

#include "arbiter/cleanup.hpp"
#include "arbiter/json.hpp"
#include "arbiter/lang/syntax.hpp"
#include "arbiter/notation.hpp"
#include "arbiter/numbers.hpp"
#include "fsf/fairy_stockfish.hpp"
#include "reference.hpp"
#include "registry/engines.hpp"
#include "registry/variants.hpp"

namespace arb::cli {

std::string terminal_text(std::string_view s, bool keep_cr) {
  std::string o;
  o.reserve(s.size());
  auto hex = [&](unsigned char b) {
    static const char* digits = "0123456789abcdef";
    o += "\\x";
    o += digits[b >> 4];
    o += digits[b & 15];
  };
  for (size_t i = 0; i < s.size();) {
    const unsigned char b = static_cast<unsigned char>(s[i]);
    if (b >= 0x20 && b < 0x7F) {
      o += static_cast<char>(b);
      ++i;
      continue;
    }
    const size_t len = arb::utf8_sequence(s, i);
    if (len == 0) {
      hex(b);
      ++i;
      continue;
    }
    const char32_t cp = arb::utf8_decode(s, i, len);
    if (cp == '\n' || cp == '\t' || (cp == '\r' && keep_cr)) {
      o += static_cast<char>(cp);
    } else if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F)) {
      for (size_t k = 0; k < len; ++k) hex(static_cast<unsigned char>(s[i + k]));
    } else {
      o.append(s.substr(i, len));
    }
    i += len;
  }
  return o;
}

namespace {

// A stream buffer that passes text through terminal_text to the buffer it wraps. The
// bytes of a UTF-8 sequence split between two writes are held until it is whole.
class TerminalBuf : public std::streambuf {
 public:
  TerminalBuf(std::streambuf* to, bool keep_cr) : to_(to), keep_cr_(keep_cr) {}
  ~TerminalBuf() override { drain(true); }

 protected:
  int_type overflow(int_type ch) override {
    if (traits_type::eq_int_type(ch, traits_type::eof())) return sync() == 0 ? traits_type::not_eof(ch) : ch;
    char c = traits_type::to_char_type(ch);
    return put(&c, 1) ? ch : traits_type::eof();
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    return put(s, static_cast<size_t>(n)) ? n : 0;
  }
  int sync() override {
    if (!drain(false)) return -1;
    return to_->pubsync();
  }

 private:
  bool put(const char* s, size_t n) {
    pending_.append(s, n);
    return drain(false);
  }
  // Writes what is whole of pending_ (all of it when `all`).
  bool drain(bool all) {
    size_t keep = 0;
    if (!all) {
      // A lead byte near the end whose sequence is not complete yet waits for the rest.
      for (size_t back = 1; back <= 3 && back <= pending_.size(); ++back) {
        const unsigned char b = static_cast<unsigned char>(pending_[pending_.size() - back]);
        if ((b & 0xC0) == 0x80) continue;
        const size_t need = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
        if (need > back) keep = back;
        break;
      }
    }
    if (pending_.size() == keep) return true;
    std::string out = terminal_text(std::string_view(pending_).substr(0, pending_.size() - keep), keep_cr_);
    pending_.erase(0, pending_.size() - keep);
    return to_->sputn(out.data(), static_cast<std::streamsize>(out.size())) ==
           static_cast<std::streamsize>(out.size());
  }
  std::streambuf* to_;
  bool keep_cr_;
  std::string pending_;
};

}  // namespace

struct TerminalGuard::Buffers {
  std::streambuf *out_old = nullptr, *err_old = nullptr;
  std::unique_ptr<TerminalBuf> out, err;
};

TerminalGuard::TerminalGuard() : b_(std::make_unique<Buffers>()) {
  b_->out_old = std::cout.rdbuf();
  b_->err_old = std::cerr.rdbuf();
  b_->out = std::make_unique<TerminalBuf>(b_->out_old, false);
  b_->err = std::make_unique<TerminalBuf>(b_->err_old, true);
  std::cout.rdbuf(b_->out.get());
  std::cerr.rdbuf(b_->err.get());
}

TerminalGuard::~TerminalGuard() {
  std::cout.flush();
  std::cerr.flush();
  std::cout.rdbuf(b_->out_old);
  std::cerr.rdbuf(b_->err_old);
}

fs::path rulesets_dir() {
  return arb::registry::rulesets_dir();
}

void add_common(po::options_description& d, Common& c, bool with_seed) {
  d.add_options()("variant", po::value(&c.variant), "bundled variant NAME (rulesets/NAME.rules)")(
      "rules", po::value(&c.rules), "ruleset FILE")("set", po::value(&c.sets)->composing(),
                                                    "option override NAME=VALUE (repeatable)")(
      "position", po::value(&c.position), "position text (default: the variant's start)")(
      "fen", po::value(&c.position), "alias of --position")(
      "moves", po::value(&c.moves),
      "actions to play from the position first (SAN, UCI, K@e1 or pKe1; `1.` numbers skipped)")(
      "engine", po::value(&c.engine), "compiled (default), reference or fairy-stockfish")(
      "fsf-variant", po::value(&c.fsf_variant), "Fairy-Stockfish's UCI_Variant (with fairy-stockfish)")(
      "fsf-variant-path", po::value(&c.fsf_variant_path), "a Fairy-Stockfish variants.ini (VariantPath)")(
      "fsf-engine", po::value(&c.fsf_engine),
      "which Fairy-Stockfish: a command (default /usr/games/fairy-stockfish, Debian's 11.1) or wasm:DIR "
      "(current Fairy-Stockfish, the npm fairy-stockfish-nnue.wasm installed under DIR, run by node)")(
      "json", po::bool_switch(&c.json), "machine-readable output");
  if (with_seed)
    d.add_options()("seed", po::value(&c.seed),
                    "start from this seed: ChessMe's piles and No Stress Chess's deck shuffled by it, "
                    "Chess 2's back rank by the rule text's dice procedure");
}

bool print_help(const po::options_description& d, const std::vector<std::string>& args,
                const char* more_exit) {
  for (const auto& a : args)
    if (a == "--help" || a == "-h") {
      std::cout << d << "\nexit status: 0 success, 1 a check failed, 2 unusable input" << more_exit << "\n";
      return true;
    }
  return false;
}

std::map<std::string, std::string> parse_sets(const std::vector<std::string>& sets) {
  std::map<std::string, std::string> out;
  for (const auto& s : sets) {
    size_t eq = s.find('=');
    if (eq == std::string::npos || eq == 0) throw UsageError("--set expects NAME=VALUE, got `" + s + "`");
    std::string value = s.substr(eq + 1);
    if (!value.empty() && value.find_first_not_of("0123456789") == std::string::npos &&
        !arb::parse_integer(value, 0, 999999999999999LL))
      throw UsageError("--set " + s + ": number too large (at most 15 digits)");
    out[s.substr(0, eq)] = s.substr(eq + 1);
  }
  return out;
}

std::string rules_path(const Common& c) {
  if (c.rules_given && c.variant_given) throw UsageError("give --variant or --rules, not both");
  if (c.rules_given) {
    if (c.rules.empty()) throw UsageError("--rules needs a file name (omit it for the default, chess)");
    check_input_file(c.rules, "ruleset", arb::lang::kMaxRulesetBytes);
    return c.rules;
  }
  if (c.variant_given && c.variant.empty())
    throw UsageError("--variant needs a name (omit it for the default, chess)");
  std::string v = c.variant.empty() ? arb::registry::default_variant() : c.variant;
  if (v.find_first_of("/\\") != std::string::npos || v == "." || v == "..")
    throw UsageError("--variant `" + v + "`: a variant name, not a path (use --rules FILE)");
  fs::path p = rulesets_dir() / (v + ".rules");
  auto known = arb::registry::find(v);
  if (!known) throw UsageError("unknown variant `" + v + "` (bundled: " + arb::registry::names() + ")");
  return known->ruleset.string();
}

arb::lang::Compiled compile_ruleset(const std::string& path,
                                    const std::map<std::string, std::string>& overrides,
                                    arb::lang::Diagnostics& diags) {
  return arb::registry::compile(path, overrides, diags);
}

arb::registry::EngineSpec engine_spec(const Common& c) {
  arb::registry::EngineSpec spec;
  auto kind = arb::registry::engine_kind(c.engine);
  if (!kind)
    throw UsageError("--engine must be `compiled`, `reference` or `fairy-stockfish`, not `" + c.engine + "`");
  spec.kind = *kind;
  if (spec.kind != arb::registry::EngineKind::FairyStockfish) spec.rules = rules_path(c);
  spec.options = parse_sets(c.sets);
  spec.fsf_variant = c.fsf_variant;
  spec.fsf_variant_path = c.fsf_variant_path;
  spec.fsf_engine = c.fsf_engine;
  spec.position = c.position;
  if (c.position_given && spec.position.find_first_not_of(" \t") == std::string::npos)
    throw UsageError("--position needs a position text (omit it for the start position)");
  if (c.seed_given && c.seed.empty()) throw UsageError("--seed needs a number");
  if (!c.seed.empty()) {
    if (!spec.position.empty()) throw UsageError("give --seed or --position, not both");
    spec.seed = uint_option("seed", c.seed, 0, UINT64_MAX);
  }
  return spec;
}

std::unique_ptr<arb::Engine> make_fairy_stockfish(const Common& c) {
  arb::registry::EngineSpec spec = engine_spec(c);
  spec.kind = arb::registry::EngineKind::FairyStockfish;
  spec.position.clear();
  spec.seed.reset();
  arb::lang::Diagnostics diags;
  try {
    return arb::registry::open_engine(spec, diags).engine;
  } catch (const arb::registry::OpenError& e) {
    throw UsageError(e.what());
  }
}

bool wins_are_checkmates(const Loaded& l) {
  const auto& p = l.compiled.program;
  return p && !p->cards && p->checkmate_loses && p->stalemate_draw && !p->no_move_loses && !p->invasion &&
         !p->royal_capture && p->royal_safe && p->extinctions.empty() && !p->must_capture;
}

Loaded load_engine(const Common& c) {
  Loaded l;
  arb::lang::Diagnostics diags;
  const arb::registry::EngineSpec spec = engine_spec(c);
  arb::registry::OpenedEngine o;
  try {
    o = arb::registry::open_engine(spec, diags);
  } catch (const arb::registry::OpenError& e) {
    throw UsageError(e.what());
  } catch (const arb::PositionError& e) {
    const std::string& position = spec.position;
    std::cerr << "error: bad position: " << e.what() << "\n  " << position << "\n  "
              << std::string(std::min(e.column, position.size()), ' ') << "^\n";
    return l;
  }
  if (!o.engine) {
    std::cerr << diags.render();
    std::cerr << spec.rules.string() << ": " << plural(diags.error_count(), "error") << "\n";
    return l;
  }
  l.compiled = std::move(o.compiled);
  l.engine = std::move(o.engine);
  l.make = std::move(o.make);
  l.variant = o.variant;
  if (!c.moves.empty()) {
    std::istringstream in(c.moves);
    std::string tok;
    int n = 0;
    while (in >> tok) {
      if (!tok.empty() && std::isdigit(static_cast<unsigned char>(tok[0])) &&
          tok.find('.') != std::string::npos) {
        tok = tok.substr(tok.rfind('.') + 1);
        if (tok.empty()) continue;
      }
      ++n;
      auto a = arb::parse_action(*l.engine, tok);
      if (!a) {
        std::cerr << "error: --moves: action " << n << " `" << tok << "` is not legal in "
                  << l.engine->position() << "\n";
        l.engine.reset();
        return l;
      }
      l.engine->apply(*a);
    }
  }
  return l;
}

namespace {

// What stands at `path` when it is not a regular file an output may replace: "" for a
// regular file or nothing at all (lstat: a symbolic link is named, not followed).
std::string not_a_regular_file(const std::string& path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) return "";
  if (S_ISREG(st.st_mode)) return "";
  if (S_ISDIR(st.st_mode)) return "is a directory";
  if (S_ISLNK(st.st_mode)) return "is a symbolic link";
  if (S_ISFIFO(st.st_mode)) return "is a FIFO";
  if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) return "is a device";
  if (S_ISSOCK(st.st_mode)) return "is a socket";
  return "is not a regular file";
}

}  // namespace

void write_atomically(const fs::path& path, const std::string& text) {
  if (path.empty()) throw std::runtime_error("cannot write to an empty file name");
  if (std::string what = not_a_regular_file(path.string()); !what.empty())
    throw std::runtime_error("cannot write " + path.string() + ": it " + what +
                             "; an output is written only as a regular file");
  fs::path dir = path.parent_path();
  if (!dir.empty()) fs::create_directories(dir);
  // A unique temporary in the target directory (so that the rename stays on one file
  // system): two runs writing the same file never share it.
  std::string tmpl = (dir / ("." + path.filename().string() + ".XXXXXX")).string();
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  int fd = mkstemp(buf.data());
  if (fd < 0) throw std::runtime_error("cannot write " + path.string() + ": " + std::strerror(errno));
  std::string tmp(buf.data());
  size_t done = 0;
  bool ok = true;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ok = false;
      break;
    }
    done += static_cast<size_t>(n);
  }
  // mkstemp creates the file 0600; an output is an ordinary file (0666 less the umask).
  mode_t mask = umask(0);
  umask(mask);
  if (fchmod(fd, 0666 & ~mask) != 0) ok = false;
  if (::close(fd) != 0) ok = false;
  int err = errno;
  // Checked again just before the rename: what appeared at the path meanwhile (a FIFO, a
  // link) is not replaced either.
  std::string what = ok ? not_a_regular_file(path.string()) : "";
  if (!what.empty()) {
    std::remove(tmp.c_str());
    throw std::runtime_error("cannot write " + path.string() + ": it " + what +
                             "; an output is written only as a regular file");
  }
  if (ok && std::rename(tmp.c_str(), path.c_str()) == 0) return;
  if (ok) err = errno;
  std::remove(tmp.c_str());
  throw std::runtime_error("cannot write " + path.string() + ": " + std::strerror(err));
}

FileLock::FileLock(const fs::path& path) {
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw std::runtime_error("cannot lock " + path.string() + ": " + std::strerror(errno));
  while (::flock(fd_, LOCK_EX) != 0) {
    if (errno == EINTR) continue;
    int err = errno;
    ::close(fd_);
    fd_ = -1;
    throw std::runtime_error("cannot lock " + path.string() + ": " + std::strerror(err));
  }
}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the lock
}

fs::path lock_path(const fs::path& output) {
  fs::path dir = output.parent_path();
  return dir.empty() ? fs::path(".") : dir;
}

po::variables_map parse_command_line(const std::vector<std::string>& args, const po::options_description& d,
                                     const char* positional) {
  po::positional_options_description pos;
  if (positional) pos.add(positional, -1);
  po::parsed_options parsed(nullptr);
  try {
    parsed = po::command_line_parser(args).options(d).positional(pos).run();
  } catch (const po::too_many_positional_options_error&) {
    // The first word that is neither an option nor an option's value.
    std::string stray;
    for (size_t i = 0; i < args.size() && stray.empty(); ++i) {
      if (args[i].rfind("-", 0) == 0) {
        const po::option_description* od =
            d.find_nothrow(args[i].substr(args[i].find_first_not_of('-')), false);
        if (od && args[i].find('=') == std::string::npos && od->semantic()->max_tokens() > 0) ++i;
        continue;
      }
      stray = args[i];
    }
    throw UsageError("unexpected argument `" + stray + "` (this command takes options only; see --help)");
  }
  for (const auto& o : parsed.options) {
    if (!o.string_key.empty() && !o.unregistered) continue;
    std::string words;
    for (const auto& t : o.original_tokens) words += (words.empty() ? "" : " ") + t;
    if (words.empty())
      for (const auto& t : o.value) words += (words.empty() ? "" : " ") + t;
    throw UsageError("unexpected argument `" + words + "` (this command takes options only; see --help)");
  }
  po::variables_map vm;
  po::store(parsed, vm);
  po::notify(vm);
  return vm;
}

int64_t int_option(const char* name, const std::string& text, int64_t lo, int64_t hi) {
  auto v = arb::parse_integer(text, lo, hi);
  if (!v)
    throw UsageError(std::string("--") + name + " `" + text + "`: " + arb::integer_problem(text, lo, hi));
  return *v;
}

uint64_t uint_option(const char* name, const std::string& text, uint64_t lo, uint64_t hi) {
  auto v = arb::parse_unsigned(text, lo, hi);
  if (!v) {
    bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
    throw UsageError(std::string("--") + name + " `" + text + "`: " +
                     (digits ? "must be between " + std::to_string(lo) + " and " + std::to_string(hi)
                             : std::string("expected a number")));
  }
  return *v;
}

double seconds_option(const char* name, const std::string& text, double lo, double hi) {
  // Digits with at most one decimal point: no sign, exponent, inf or nan.
  bool ok = !text.empty() && text.size() <= 32 &&
            text.find_first_not_of("0123456789.") == std::string::npos && text.find('.') == text.rfind('.') &&
            text != ".";
  double v = ok ? std::strtod(text.c_str(), nullptr) : 0;
  if (!ok || !std::isfinite(v) || v < lo || v > hi) {
    std::ostringstream o;
    o << "--" << name << " `" << text << "`: expected seconds between " << lo << " and " << hi;
    throw UsageError(o.str());
  }
  return v;
}

void check_input_file(const std::string& path, const std::string& what, uintmax_t max_bytes) {
  if (path.empty()) throw UsageError("empty " + what + " file name");
  std::error_code ec;
  fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) throw UsageError(path + ": cannot read the " + what + ": no such file");
  if (fs::is_directory(st)) throw UsageError(path + ": the " + what + " is a directory, not a file");
  if (!fs::is_regular_file(st)) throw UsageError(path + ": the " + what + " is not a regular file");
  uintmax_t size = fs::file_size(path, ec);
  if (ec) throw UsageError(path + ": cannot read the " + what);
  if (size > max_bytes) {
    // Where the limit is crossed: the line and column of its first byte past it.
    std::ifstream in(path, std::ios::binary);
    size_t line = 1, col = 1;
    char ch;
    for (uintmax_t i = 0; i < max_bytes && in.get(ch); ++i) {
      if (ch == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    throw UsageError(path + ":" + std::to_string(line) + ":" + std::to_string(col) + ": the " + what +
                     " passes the limit of " + std::to_string(max_bytes >> 10) + " KiB here (" +
                     std::to_string(size) + " bytes in all)");
  }
  std::ifstream probe(path, std::ios::binary);
  if (!probe) throw UsageError(path + ": cannot read the " + what + ": " + std::strerror(errno));
}

std::vector<std::string> input_files(const Common& c) {
  std::vector<std::string> in{c.rules, c.fsf_variant_path};
  try {
    in.push_back(rules_path(c));
  } catch (const UsageError&) {
    // Reported when the engine is loaded.
  }
  return in;
}

void check_output_path(const std::string& path, const std::vector<std::string>& inputs, const char* option) {
  const std::string opt = std::string("--") + option;
  if (path.empty()) throw UsageError(opt + " needs a file name");
  if (std::string what = not_a_regular_file(path); !what.empty())
    throw UsageError(opt + " " + path + ": " + what + "; an output is written only as a regular file");
  for (const auto& in : inputs) {
    if (in.empty()) continue;
    std::error_code e1;
    if (fs::exists(path, e1) && fs::equivalent(path, in, e1))
      throw UsageError(opt + " " + path + ": is an input file (" + in + "); refusing to overwrite it");
  }
  // The folder it goes in: the nearest existing ancestor must be a directory (so that
  // `--out afile/p.csv` is refused now, not after the run).
  fs::path dir = fs::path(path).parent_path();
  while (!dir.empty()) {
    struct stat st;
    if (::stat(dir.c_str(), &st) == 0) {
      if (!S_ISDIR(st.st_mode))
        throw UsageError(opt + " " + path + ": " + dir.string() + " is not a directory");
      if (::access(dir.c_str(), W_OK | X_OK) != 0)
        throw UsageError(opt + " " + path + ": cannot write in " + dir.string() + ": " +
                         std::strerror(errno));
      break;
    }
    if (errno == ENOTDIR) throw UsageError(opt + " " + path + ": " + dir.string() + " is not a directory");
    dir = dir.parent_path();
  }
}

void handle_signals() {
  // SIGINT, SIGTERM and SIGHUP are blocked in every thread (the mask is inherited) and
  // taken by one thread with sigwait, where removing files is safe: the temporary
  // directories go, then the process ends as the signal would have ended it.
  static sigset_t set;
  sigemptyset(&set);
  for (int s : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&set, s);
  if (pthread_sigmask(SIG_BLOCK, &set, nullptr) != 0) return;
  std::thread([] {
    int sig = 0;
    if (sigwait(&set, &sig) != 0) return;
    arb::remove_temp_dirs();
    std::_Exit(128 + sig);
  }).detach();
}

struct Watchdog::State {
  std::mutex m;
  std::condition_variable cv;
  bool disarmed = false;
  std::thread thread;
};

Watchdog::Watchdog(double seconds, std::string cmd) {
  if (!(seconds > 0)) return;
  state_ = std::make_shared<State>();
  auto st = state_;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  st->thread = std::thread([st, deadline, seconds, cmd] {
    std::unique_lock<std::mutex> lock(st->m);
    if (st->cv.wait_until(lock, deadline, [&] { return st->disarmed; })) return;
    std::ostringstream o;
    o << "\narbiter " << cmd << ": --timeout " << seconds << " s reached before the run completed\n";
    std::string msg = o.str();
    ssize_t r = ::write(2, msg.data(), msg.size());
    (void)r;
    arb::remove_temp_dirs();
    std::_Exit(kFailed);
  });
}

void Watchdog::disarm() {
  if (!state_) return;
  {
    std::lock_guard<std::mutex> lock(state_->m);
    state_->disarmed = true;
  }
  state_->cv.notify_all();
  if (state_->thread.joinable()) state_->thread.join();
  state_.reset();
}

Watchdog::~Watchdog() {
  disarm();
}

std::string xml_escape(const std::string& s) {
  std::string o;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (static_cast<unsigned char>(c) >= 0x80) {
      // Well-formed UTF-8 passes (but C1 controls, which XML 1.0 discourages); any
      // other byte becomes U+FFFD, so that the file stays well-formed XML.
      const size_t len = arb::utf8_sequence(s, i);
      const char32_t cp = len ? arb::utf8_decode(s, i, len) : 0;
      if (len == 0 || cp <= 0x9F || cp == 0xFFFE || cp == 0xFFFF) {
        o += "\xEF\xBF\xBD";
        i += len ? len - 1 : 0;
      } else {
        o.append(s, i, len);
        i += len - 1;
      }
      continue;
    }
    switch (c) {
      case '<':
        o += "&lt;";
        break;
      case '>':
        o += "&gt;";
        break;
      case '&':
        o += "&amp;";
        break;
      case '"':
        o += "&quot;";
        break;
      case '\'':
        o += "&apos;";
        break;
      default:
        // XML 1.0 admits no control characters but tab, newline and carriage return.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r')
          o += '?';
        else
          o += c;
    }
  }
  return o;
}

std::string junit_xml(const std::string& suite, const std::vector<JUnitCase>& cases) {
  size_t failures = 0;
  double total = 0;
  for (const auto& c : cases) {
    failures += c.failed ? 1 : 0;
    total += c.seconds;
  }
  std::ostringstream o;
  o << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n<testsuite name=\"" << xml_escape(suite)
    << "\" tests=\"" << cases.size() << "\" failures=\"" << failures << "\" errors=\"0\" time=\"" << total
    << "\">\n";
  for (const auto& c : cases) {
    o << "  <testcase name=\"" << xml_escape(c.name) << "\" classname=\"" << xml_escape(c.classname)
      << "\" time=\"" << c.seconds << "\"";
    if (!c.failed && c.output.empty()) {
      o << "/>\n";
      continue;
    }
    o << ">\n";
    if (c.failed)
      o << "    <failure message=\"" << xml_escape(c.message) << "\">" << xml_escape(c.output)
        << "</failure>\n";
    else
      o << "    <system-out>" << xml_escape(c.output) << "</system-out>\n";
    o << "  </testcase>\n";
  }
  o << "</testsuite>\n</testsuites>\n";
  return o.str();
}

}  // namespace arb::cli
