#include "run.hpp"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>

namespace arb::records {

namespace {

constexpr size_t kBatchGames = 256;
constexpr size_t kBatchBytes = size_t{1} << 20;

struct Batch {
  size_t file = 0;
  uint64_t bytes_read = 0;  // of the file, when the batch was cut
  std::string unusable;     // the file cannot be read further: why
  std::string text;
  struct Item {
    size_t offset, size;
    uint64_t first_line, index;
    bool bom, crlf;
    uint64_t cut;
  };
  std::vector<Item> items;
  std::vector<GameReport> reports;
};

void process(Batch& b, Validator& v, ParsedGame& pg, const std::string& dir) {
  if (!b.unusable.empty()) {
    b.reports.resize(1);
    b.reports[0].unusable = true;
    b.reports[0].valid = false;
    b.reports[0].kind = "unusable-file";
    b.reports[0].reason = b.unusable;
    return;
  }
  b.reports.resize(b.items.size());
  for (size_t k = 0; k < b.items.size(); ++k) {
    const auto& it = b.items[k];
    parse_game(std::string_view(b.text).substr(it.offset, it.size), it.first_line, pg);
    pg.bom = it.bom;
    pg.crlf = it.crlf;
    pg.cut_line = static_cast<uint32_t>(it.cut);
    b.reports[k].game = it.index;
    auto t0 = std::chrono::steady_clock::now();
    v.validate(pg, dir, b.reports[k]);
    b.reports[k].seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
}

}  // namespace

RunTotals run_files(const std::vector<std::string>& files, const RunOptions& opt, EngineCache& cache,
                    const std::function<void(const std::string&, const GameReport&)>& emit,
                    const std::function<void(const RunTotals&)>& progress) {
  RunTotals totals;
  std::vector<std::string> dirs;
  for (const auto& f : files) dirs.push_back(f == "-" ? "" : std::filesystem::path(f).parent_path().string());
  int jobs = std::max(1, opt.jobs);
  // The files' sizes, for progress; the total is unknown with standard input or a pipe.
  std::vector<uint64_t> sizes(files.size()), bytes_before(files.size() + 1);
  bool sizes_known = true;
  for (size_t f = 0; f < files.size(); ++f) {
    std::error_code ec;
    sizes[f] = files[f] != "-" && std::filesystem::is_regular_file(files[f], ec)
                   ? std::filesystem::file_size(files[f], ec)
                   : 0;
    if (ec || files[f] == "-") sizes[f] = 0;
    if (files[f] == "-" ||
        (!ec && !std::filesystem::is_regular_file(files[f], ec) && std::filesystem::exists(files[f], ec)))
      sizes_known = false;
    bytes_before[f + 1] = bytes_before[f] + sizes[f];
  }
  totals.bytes_total = sizes_known ? bytes_before[files.size()] : 0;
  const uint64_t shard_n = std::max<uint64_t>(1, opt.shard_count);

  auto emit_batch = [&](Batch& b) {
    for (const auto& r : b.reports) {
      if (r.unusable) {
        totals.unusable.push_back(r.reason);
        ++totals.counts[r.kind];
        emit(files[b.file], r);
        continue;
      }
      ++totals.games;
      (r.valid ? totals.valid : totals.invalid)++;
      if (r.valid && r.warnings) ++totals.with_warnings;
      for (const auto& f : r.findings) ++totals.counts[f.code];
      emit(files[b.file], r);
    }
    totals.bytes_done = bytes_before[b.file] + b.bytes_read;
    if (progress) progress(totals);
  };

  // Threads: a queue of batches to validate and the finished ones by sequence number.
  // Not arb::parallel_for (the project's fan-out for a fixed set of jobs): here the calling
  // thread keeps reading files and emitting reports in input order while the workers run,
  // with at most 3 batches per worker in flight; parallel_for's fallback (a job whose thread
  // cannot start runs on the caller after job 0) would leave such a producer waiting forever
  // on a consumer that never started. Threads that cannot start are simply not used.
  std::mutex mu;
  std::condition_variable cv_work, cv_done;
  std::deque<std::pair<uint64_t, std::unique_ptr<Batch>>> work;
  std::map<uint64_t, std::unique_ptr<Batch>> done;
  bool closing = false;
  std::vector<std::thread> threads;
  if (jobs > 1) {
    for (int t = 0; t < jobs; ++t) try {
        threads.emplace_back([&] {
          Validator v(cache, opt.strict);
          ParsedGame pg;
          for (;;) {
            std::pair<uint64_t, std::unique_ptr<Batch>> job;
            {
              std::unique_lock<std::mutex> lock(mu);
              cv_work.wait(lock, [&] { return closing || !work.empty(); });
              if (work.empty()) return;
              job = std::move(work.front());
              work.pop_front();
            }
            process(*job.second, v, pg, dirs[job.second->file]);
            {
              std::lock_guard<std::mutex> lock(mu);
              done.emplace(job.first, std::move(job.second));
            }
            cv_done.notify_all();
          }
        });
      } catch (const std::system_error&) {
        break;  // the system starts no more threads: run on those that started
      }
    // None started: validate on the calling thread.
    if (threads.empty()) jobs = 1;
  }
  Validator inline_validator(cache, opt.strict);
  ParsedGame inline_pg;
  uint64_t pushed = 0, emitted = 0;
  const uint64_t max_in_flight = static_cast<uint64_t>(std::max<size_t>(1, threads.size())) * 3;
  auto emit_one = [&] {  // blocks until the next batch in order is done
    std::unique_ptr<Batch> b;
    {
      std::unique_lock<std::mutex> lock(mu);
      cv_done.wait(lock, [&] { return done.count(emitted) > 0; });
      b = std::move(done[emitted]);
      done.erase(emitted);
    }
    ++emitted;
    emit_batch(*b);
  };
  auto submit = [&](std::unique_ptr<Batch> b) {
    if (b->items.empty() && b->unusable.empty()) return;
    if (jobs == 1) {
      process(*b, inline_validator, inline_pg, dirs[b->file]);
      emit_batch(*b);
      return;
    }
    while (pushed - emitted >= max_in_flight) emit_one();
    {
      std::lock_guard<std::mutex> lock(mu);
      work.emplace_back(pushed++, std::move(b));
    }
    cv_work.notify_one();
    // Emit whatever is already finished, without waiting.
    for (;;) {
      {
        std::lock_guard<std::mutex> lock(mu);
        if (!done.count(emitted)) break;
      }
      emit_one();
    }
  };

  uint64_t global = 0;
  for (size_t f = 0; f < files.size(); ++f) {
    uint64_t read_bytes = 0;
    auto b = std::make_unique<Batch>();
    b->file = f;
    try {
      Splitter sp(open_source(files[f], &read_bytes), files[f]);
      uint64_t index = 0;
      for (;;) {
        size_t off = b->text.size();
        uint64_t first_line = 0;
        if (!sp.next(b->text, first_line)) break;
        ++index;
        if (global++ % shard_n != opt.shard_index) {
          b->text.resize(off);
          continue;
        }
        b->items.push_back(
            {off, b->text.size() - off, first_line, index, sp.game_bom(), sp.game_crlf(), sp.game_cut()});
        if (b->items.size() >= kBatchGames || b->text.size() >= kBatchBytes) {
          b->bytes_read = read_bytes;
          submit(std::move(b));
          b = std::make_unique<Batch>();
          b->file = f;
        }
      }
      b->bytes_read = read_bytes;
      submit(std::move(b));
    } catch (const InputError& e) {
      // The file (or its rest) is unusable: the games read before it are validated, then a
      // report of its own, in order, and on to the next file.
      if (b) {
        b->bytes_read = read_bytes;
        submit(std::move(b));
      }
      b = std::make_unique<Batch>();
      b->file = f;
      b->unusable = e.what();
      b->bytes_read = sizes[f];
      submit(std::move(b));
    }
  }
  while (emitted < pushed) emit_one();
  {
    std::lock_guard<std::mutex> lock(mu);
    closing = true;
  }
  cv_work.notify_all();
  for (auto& t : threads) t.join();
  return totals;
}

}  // namespace arb::records
