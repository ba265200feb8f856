// Validation of whole files: streams each file through the splitter in batches of games,
// validates the batches on `jobs` threads and hands the reports back in file order.
// Memory is bounded by the batches in flight, whatever the files' sizes.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "validate.hpp"

namespace arb::records {

struct RunOptions {
  int jobs = 1;
  uint64_t shard_index = 0, shard_count = 1;  // game k (0-based over all files) when k % count == index
};

struct RunTotals {
  uint64_t games = 0, valid = 0, invalid = 0;
  std::vector<std::string> unusable;  // messages about files that could not be read (exit 2)
};

// `emit(file, report)` is called for every validated game, in input order, from the calling
// thread; `progress(totals)` after every batch.
RunTotals run_files(const std::vector<std::string>& files, const RunOptions& opt, EngineCache& cache,
                    const std::function<void(const std::string&, const GameReport&)>& emit,
                    const std::function<void(const RunTotals&)>& progress);

}  // namespace arb::records
