// `arbiter validate --merge SHARD.json...`: the JSON lines of several validation runs (the
// shards of one collection, each run with `--json --shard I/N`) merged into one summary,
// with the shards checked: every shard of I/N present once, each complete (its summary
// line there and agreeing with its game lines).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace arb::records {

struct MergedSummary {
  uint64_t games = 0, valid = 0, invalid = 0, with_warnings = 0, unusable_files = 0;
  std::map<std::string, uint64_t> counts;   // findings per code, over all shards
  double seconds_max = 0, seconds_sum = 0;  // the slowest shard; all shards together
  size_t shards = 0;
  // Why the merge is incomplete (a missing or unreadable shard file, a shard without its
  // summary line, a missing or repeated shard index): each makes the exit status 2.
  std::vector<std::string> problems;
};

MergedSummary merge_shards(const std::vector<std::string>& files);

// The summary as validate prints it: a JSON line (with "merged":N) or text lines.
std::string merged_json(const MergedSummary& m);
std::string merged_text(const MergedSummary& m);

}  // namespace arb::records
