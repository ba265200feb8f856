// Splitting a position text (FEN and its relatives, ChessMe and No Stress Chess texts) into
// its blank-separated fields, each with the column where it starts (for PositionError), and
// joining edited fields back. The one field splitter of the project: the text readers of
// engine/ and the solver's edits of a position (side to move, castling rights) use it.
#pragma once

#include <cctype>
#include <optional>
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

// The board field of a FEN-like text of any size as its ranks, top rank first, one
// character per square: the piece letter, '.' for an empty one. nullopt when the field holds
// anything but letters, digits and '/' (promoted-piece marks, holdings: callers cut those
// off or refuse them) or a run of empty squares longer than `max_run`. Unlike parse_fen
// (fen.hpp) it needs no board size and checks no letter: the fuzzer's and the mate-in-1
// checker's board edits read boards with it.
inline std::optional<std::vector<std::string>> board_ranks(std::string_view board, size_t max_run = 64) {
  std::vector<std::string> ranks(1);
  for (size_t i = 0; i < board.size(); ++i) {
    const char c = board[i];
    if (c == '/') {
      ranks.emplace_back();
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t n = 0;
      for (; i < board.size() && std::isdigit(static_cast<unsigned char>(board[i])); ++i) {
        n = n * 10 + static_cast<size_t>(board[i] - '0');
        if (n > max_run) return std::nullopt;
      }
      --i;
      ranks.back().append(n, '.');
    } else if (std::isalpha(static_cast<unsigned char>(c))) {
      ranks.back().push_back(c);
    } else {
      return std::nullopt;
    }
  }
  return ranks;
}

// The inverse of board_ranks: ranks ('.' an empty square) written as a board field, runs of
// empty squares as numbers.
inline std::string board_field(const std::vector<std::string>& ranks) {
  std::string out;
  for (size_t r = 0; r < ranks.size(); ++r) {
    if (r) out += '/';
    size_t run = 0;
    for (char c : ranks[r]) {
      if (c == '.') {
        ++run;
        continue;
      }
      if (run) out += std::to_string(run);
      run = 0;
      out += c;
    }
    if (run) out += std::to_string(run);
  }
  return out;
}

}  // namespace arb
