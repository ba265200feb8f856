// The position texts as the metamorphic properties transform them (properties.hpp: the
// colour flip, the mirror, the 180-degree rotation with the colours swapped, the grid's flip
// and mirror), and what the property checks need of a text's board. Internal to the checker.
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "fuzz/mutate_detail.hpp"

namespace arb::fuzz::detail {

inline std::string swap_case(std::string s) {
  for (char& c : s) c = is_upper(c) ? lower(c) : upper(c);
  return s;
}

// The board's width and height of a FEN-like text (any size, promoted marks, walls).
std::optional<std::pair<int, int>> fen_size(const std::string& text);

}  // namespace arb::fuzz::detail
