// Splitting a position text into its blank-separated fields, each with the column where it
// starts (for PositionError). Private to engine/: the ChessMe and No Stress Chess readers.
#pragma once

#include <string_view>
#include <vector>

namespace arb::detail {

struct Field {
  std::string_view text;
  size_t col;
};

// Splits on runs of spaces/tabs, remembering where each field starts.
inline std::vector<Field> split_fields(std::string_view s) {
  std::vector<Field> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    if (i >= s.size()) break;
    size_t start = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
    out.push_back({s.substr(start, i - start), start});
  }
  return out;
}

}  // namespace arb::detail
