// The `.perft` suite format of ../shared/perft/: blocks of `id NAME`, `epd FEN` and
// `perft DEPTH NODES` lines; `#` starts a comment.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace arb {

struct PerftCase {
  std::string id;
  std::string position;
  int line = 0;                                    // line of the `epd` line in the file
  std::vector<std::pair<int, uint64_t>> expected;  // (depth, nodes)
};

// Reads a suite; throws std::runtime_error naming file:line on malformed lines.
std::vector<PerftCase> read_perft_suite(const std::string& path);

}  // namespace arb
