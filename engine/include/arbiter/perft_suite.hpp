// The `.perft` suite format of ../shared/perft/: blocks of `id NAME`, `epd FEN` and
// `perft DEPTH NODES` lines; `#` starts a comment.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace arb {

struct PerftCase {
  std::string id;
  std::string position;
  int line = 0;                                    // line of the `epd` line in the file
  std::vector<std::pair<int, uint64_t>> expected;  // (depth, nodes)
};

// Limits of a suite: the deepest perft a line may ask for (as `arbiter perft --depth`),
// the largest suite file and the longest line read.
constexpr int kMaxSuiteDepth = 20;
constexpr uint64_t kMaxSuiteBytes = 64u << 20;
constexpr size_t kMaxSuiteLine = 4096;

// Reads a suite; throws std::runtime_error naming file:line on malformed lines, and names
// the file when it is no regular file, cannot be read or is larger than kMaxSuiteBytes.
std::vector<PerftCase> read_perft_suite(const std::string& path);

// Parses suite text from `in`; `name` is the file name used in messages.
std::vector<PerftCase> parse_perft_suite(std::istream& in, const std::string& name);

}  // namespace arb
