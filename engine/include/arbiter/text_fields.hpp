// Splitting a position text (FEN and its relatives, ChessMe and No Stress Chess texts) into
// its blank-separated fields, each with the column where it starts (for PositionError), and
// joining edited fields back. The one field splitter of the project: the text readers of
// engine/ and the solver's edits of a position (side to move, castling rights) use it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace arb {

struct TextField {
  std::string_view text;
  size_t col;
};

// Splits on runs of spaces/tabs, remembering where each field starts.
inline std::vector<TextField> split_fields(std::string_view s) {
  std::vector<TextField> out;
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

// The fields as strings, to edit.
inline std::vector<std::string> field_strings(std::string_view s) {
  std::vector<std::string> out;
  for (const TextField& f : split_fields(s)) out.emplace_back(f.text);
  return out;
}

// The fields joined by one space.
inline std::string join_fields(const std::vector<std::string>& fields) {
  std::string o;
  for (const auto& f : fields) o += (o.empty() ? "" : " ") + f;
  return o;
}

}  // namespace arb
