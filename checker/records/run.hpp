// Validation of whole files: streams each file through the splitter in batches of games,
// validates the batches on `jobs` threads and hands the reports back in file order.
// Memory is bounded by the batches in flight, whatever the files' sizes.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "validate.hpp"

namespace arb::records {

struct RunOptions {
  int jobs = 1;
  uint64_t shard_index = 0, shard_count = 1;  // game k (0-based over all files) when k % count == index
  bool strict = false;                        // warnings count as errors
};

struct RunTotals {
  uint64_t games = 0, valid = 0, invalid = 0;
  uint64_t with_warnings = 0;              // valid games with warnings
  std::map<std::string, uint64_t> counts;  // findings per code (errors and warnings)
  std::vector<std::string> unusable;       // messages about files that could not be read (exit 2)
  // Progress: bytes of the files read so far (as stored, compressed or not) and their total
  // size (0 when unknown: standard input or a pipe).
  uint64_t bytes_done = 0, bytes_total = 0;
};

// `emit(file, report)` is called for every validated game, in input order, from the calling
// thread, and for every file that cannot be read (a report with `unusable` set, game 0: the
// batch goes on with the next file); `progress(totals)` after every batch.
RunTotals run_files(const std::vector<std::string>& files, const RunOptions& opt, EngineCache& cache,
                    const std::function<void(const std::string&, const GameReport&)>& emit,
                    const std::function<void(const RunTotals&)>& progress);

}  // namespace arb::records
