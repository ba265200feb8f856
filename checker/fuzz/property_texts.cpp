// The position texts the metamorphic properties compare (property_texts.hpp, properties.hpp):
// moved out of properties.cpp (issue 25's 800-line limit) unchanged, with the rotation added.
#include "fuzz/property_texts.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdlib>
#include <vector>

#include "arbiter/notation.hpp"
#include "fuzz/properties.hpp"

namespace arb::fuzz {

namespace {

using detail::swap_case;

// A FEN-like text with one token per square: a piece letter, `.` an empty square, `*` a
// wall square, `+P` or `P~` a promoted piece (shogi's and crazyhouse's marks), which the
// fuzzer's one-character boards (mutate_detail.hpp) refuse; the reserve's letters and the
// fields as split_fen reads them.
struct TokenBoard {
  std::vector<std::vector<std::string>> ranks;  // top rank first
  bool has_reserve = false;
  std::string reserve;
  std::vector<std::string> fields;
  int width() const { return static_cast<int>(ranks[0].size()); }
  int height() const { return static_cast<int>(ranks.size()); }
};

std::optional<TokenBoard> split_board(const std::string& text) {
  const size_t start = text.find_first_not_of(" \t");
  if (start == std::string::npos) return std::nullopt;
  size_t end = text.find_first_of(" \t[", start);
  if (end == std::string::npos) end = text.size();
  const std::string board = text.substr(start, end - start);
  if (board.find('/') == std::string::npos) return std::nullopt;
  TokenBoard b;
  b.ranks.emplace_back();
  auto alpha = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; };
  for (size_t i = 0; i < board.size(); ++i) {
    const char c = board[i];
    if (c == '/') {
      b.ranks.emplace_back();
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t n = 0;
      for (; i < board.size() && std::isdigit(static_cast<unsigned char>(board[i])); ++i)
        if ((n = n * 10 + static_cast<size_t>(board[i] - '0')) > 64) return std::nullopt;
      --i;
      b.ranks.back().insert(b.ranks.back().end(), n, ".");
    } else if (c == '*') {
      b.ranks.back().push_back("*");
    } else if (c == '+' && i + 1 < board.size() && alpha(board[i + 1])) {
      b.ranks.back().push_back(board.substr(i, 2));
      ++i;
    } else if (alpha(c)) {
      const bool mark = i + 1 < board.size() && board[i + 1] == '~';
      b.ranks.back().push_back(board.substr(i, mark ? 2 : 1));
      i += mark ? 1 : 0;
    } else {
      return std::nullopt;
    }
  }
  for (const auto& r : b.ranks)
    if (r.empty() || r.size() != b.ranks[0].size()) return std::nullopt;
  // The reserve and the fields: split_fen's reading of a board it can hold.
  std::string one_file = "1";  // a board of one empty file, as many ranks
  for (int r = 1; r < b.height(); ++r) one_file += "/1";
  auto f = detail::split_fen(one_file + text.substr(end));
  if (!f) return std::nullopt;
  b.has_reserve = f->has_reserve;
  b.reserve = f->reserve;
  b.fields = f->fields;
  return b;
}

std::string join_board(const TokenBoard& b) {
  std::string out;
  for (size_t r = 0; r < b.ranks.size(); ++r) {
    if (r) out += '/';
    int run = 0;
    for (const std::string& t : b.ranks[r]) {
      if (t == ".") {
        ++run;
        continue;
      }
      if (run) out += std::to_string(run);
      run = 0;
      out += t;
    }
    if (run) out += std::to_string(run);
  }
  if (b.has_reserve) out += "[" + b.reserve + "]";
  for (const auto& field : b.fields) out += " " + field;
  return out;
}

// The en-passant field's squares mapped: one square, or (`en-passant-field path`) the
// squares a double step passed and reached, written one after another (`f3g4`).
template <class F>
std::optional<std::string> map_squares(const std::string& field, F f) {
  std::string out;
  size_t pos = 0;
  while (pos < field.size()) {
    auto sq = parse_square(field, pos);
    if (!sq) return std::nullopt;
    out += square_name(f(*sq));
  }
  return out.empty() ? std::nullopt : std::optional<std::string>(out);
}

// No Stress Chess's card fields (nostress_text.hpp): the hands and discard piles swap with
// the colours, the shared pile stays. The game is colour-symmetric except for a reshuffle
// of fixed order (`reshuffle:SEED`), which stacks White's discard pile under Black's
// (RULINGS 3.8): such a text is flipped only while its pile holds every card the turn may
// draw (one, and a redraw of a hand: 2 (H + 1) with H the larger hand), else false.
bool flip_card_fields(std::vector<std::string>& fields) {
  auto find = [&](const std::string& key) -> std::string* {
    for (auto& x : fields)
      if (x.rfind(key, 0) == 0) return &x;
    return nullptr;
  };
  auto count = [](const std::string& cards) {
    size_t q = cards.find('?');
    if (cards == "-") return 0;
    if (q == std::string::npos) return static_cast<int>(cards.size());
    return static_cast<int>(q) + std::atoi(cards.c_str() + q + 1);
  };
  std::string *wh = find("whand:"), *bh = find("bhand:"), *wd = find("wdiscard:"), *bd = find("bdiscard:");
  if (!wh && !bh && !wd && !bd) return true;
  if (!wh || !bh || !wd || !bd) return false;
  if (find("reshuffle:")) {
    const std::string* pile = find("pile:");
    const int hand = std::max(count(wh->substr(6)), count(bh->substr(6)));
    if (!pile || count(pile->substr(5)) < 2 * (hand + 1)) return false;
  }
  const std::string w = wh->substr(6), b = bh->substr(6);
  *wh = "whand:" + b;
  *bh = "bhand:" + w;
  const std::string x = wd->substr(9), y = bd->substr(9);
  *wd = "wdiscard:" + y;
  *bd = "bdiscard:" + x;
  return true;
}

}  // namespace

namespace detail {

std::optional<std::pair<int, int>> fen_size(const std::string& text) {
  auto b = split_board(text);
  if (!b) return std::nullopt;
  return std::make_pair(b->width(), b->height());
}

}  // namespace detail

std::optional<std::string> flip_position(const std::string& text) {
  auto f = split_board(text);
  if (!f || f->fields.empty() || (f->fields[0] != "w" && f->fields[0] != "b")) return std::nullopt;
  const int h = f->height();
  std::reverse(f->ranks.begin(), f->ranks.end());
  for (auto& r : f->ranks)
    for (auto& t : r) t = swap_case(t);
  // '.', '*', '+' and '~' are not letters: swap_case leaves them.
  if (f->has_reserve) {
    std::string up, low;
    for (char c : swap_case(f->reserve)) (detail::is_upper(c) ? up : low).push_back(c);
    f->reserve = up + low;
  }
  f->fields[0] = f->fields[0] == "w" ? "b" : "w";
  if (f->fields.size() > 1 && f->fields[1] != "-") {
    std::string up, low;
    for (char c : swap_case(f->fields[1])) (detail::is_upper(c) ? up : low).push_back(c);
    f->fields[1] = up + low;
  }
  if (f->fields.size() > 2 && f->fields[2] != "-") {
    auto sqs = map_squares(f->fields[2], [h](Coord c) { return Coord{c.x, h + 1 - c.y}; });
    if (!sqs) return std::nullopt;
    f->fields[2] = *sqs;
  }
  // `checks N -> win`: the checks each side has still to give, White's first (`3+2`).
  if (f->fields.size() > 3) {
    const std::string& c = f->fields[3];
    const size_t plus = c.find('+');
    if (plus != std::string::npos && plus > 0 && plus + 1 < c.size() &&
        std::all_of(c.begin(), c.end(), [](char ch) { return ch == '+' || (ch >= '0' && ch <= '9'); }) &&
        c.find('+', plus + 1) == std::string::npos)
      f->fields[3] = c.substr(plus + 1) + "+" + c.substr(0, plus);
  }
  if (!flip_card_fields(f->fields)) return std::nullopt;
  return join_board(*f);
}

std::optional<std::string> flip_grid_position(const std::string& text) {
  auto p = detail::parse_me(text);
  if (!p) return std::nullopt;
  for (auto& [sq, pc] : p->pieces) {
    if (sq.y == INT32_MIN) return std::nullopt;
    sq.y = -sq.y;
    pc = detail::is_upper(pc) ? detail::lower(pc) : detail::upper(pc);
  }
  p->side = p->side == Color::White ? Color::Black : Color::White;
  std::swap(p->hand[0], p->hand[1]);
  std::swap(p->pile[0], p->pile[1]);
  std::swap(p->pile_known[0], p->pile_known[1]);
  std::swap(p->captured[0], p->captured[1]);
  for (int c = 0; c < 2; ++c) {
    p->hand[c] = swap_case(p->hand[c]);
    p->pile[c] = swap_case(p->pile[c]);
    p->captured[c] = swap_case(p->captured[c]);
  }
  return format_chessme(*p);
}

std::optional<std::string> mirror_grid_position(const std::string& text) {
  auto p = detail::parse_me(text);
  if (!p) return std::nullopt;
  for (auto& [sq, pc] : p->pieces) {
    if (sq.x == INT32_MIN) return std::nullopt;
    sq.x = -sq.x;
  }
  return format_chessme(*p);
}

std::optional<std::string> mirror_position(const std::string& text, bool strip_castling) {
  auto f = split_board(text);
  if (!f || f->fields.empty()) return std::nullopt;
  const int w = f->width();
  for (auto& r : f->ranks) std::reverse(r.begin(), r.end());
  if (f->fields.size() > 1 && f->fields[1] != "-") {
    if (!strip_castling) return std::nullopt;
    f->fields[1] = "-";
  }
  if (f->fields.size() > 2 && f->fields[2] != "-") {
    auto sqs = map_squares(f->fields[2], [w](Coord c) { return Coord{w - 1 - c.x, c.y}; });
    if (!sqs) return std::nullopt;
    f->fields[2] = *sqs;
  }
  return join_board(*f);
}

std::optional<std::string> rotate_position(const std::string& text, bool strip_castling) {
  auto m = mirror_position(text, strip_castling);
  return m ? flip_position(*m) : std::nullopt;
}

}  // namespace arb::fuzz
