#include "arbiter/chessme_text.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <set>

#include "arbiter/notation.hpp"
#include "arbiter/numbers.hpp"
#include "arbiter/random.hpp"
#include "arbiter/text_fields.hpp"
#include "arbiter/wording.hpp"

namespace arb {

namespace {

[[noreturn]] void fail(const std::string& msg, size_t col) {
  throw PositionError(msg, col);
}

const char* side_name(int c) {
  return c == 0 ? "White" : "Black";
}

char upper(char ch) {
  return static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
}
char lower(char ch) {
  return static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
}

// The tile letters of a rule set: K Q R B N P, then any other letter of the setup or the
// pile in order of first appearance (upper case).
std::string letter_order(const TileRules& rules) {
  std::string order = "KQRBNP";
  auto add = [&](char ch) {
    if (!std::isalpha(static_cast<unsigned char>(ch))) return;
    ch = upper(ch);
    if (order.find(ch) == std::string::npos) order.push_back(ch);
  };
  for (char ch : rules.tiles) add(ch);
  // Only the letters of the setup's pieces (a letter followed by a square).
  for (size_t i = 0; i < rules.setup.size(); ++i)
    if (i == 0 || rules.setup[i - 1] == ',') add(rules.setup[i]);
  return order;
}

// Index of a piece letter in `order` (either case), or -1.
int type_index(std::string_view order, char ch) {
  size_t i = order.find(upper(ch));
  return i == std::string_view::npos ? -1 : static_cast<int>(i);
}

using Field = TextField;

// A tile letter of the given colour (0 White = upper case, 1 Black = lower case).
void check_letter(std::string_view order, char ch, int color, const char* what, size_t col) {
  int t = type_index(order, ch);
  if (t < 0) fail(std::string("unknown piece letter '") + ch + "' in the " + what, col);
  bool upper = std::isupper(static_cast<unsigned char>(ch)) != 0;
  if (upper != (color == 0))
    fail(std::string("letter '") + ch + "' has the wrong case in the " + what + ": " + side_name(color) +
             "'s tiles are written " + (color == 0 ? "upper" : "lower") + " case",
         col);
}

// Splits a `WHITE/BLACK` field into its two halves (with their columns).
std::array<Field, 2> split_pair(const Field& f, const char* what) {
  size_t slash = f.text.find('/');
  if (slash == std::string_view::npos) fail(std::string("the ") + what + " field must be WHITE/BLACK", f.col);
  if (f.text.find('/', slash + 1) != std::string_view::npos)
    fail(std::string("the ") + what + " field has more than one '/'", f.col + f.text.find('/', slash + 1));
  return {Field{f.text.substr(0, slash), f.col}, Field{f.text.substr(slash + 1), f.col + slash + 1}};
}

// A half of a hand / pile / capture field: `-` or letters of `letter_color`. `allow_unknown`
// admits `?` (returns false for it).
bool parse_tiles(std::string_view order, const Field& half, int letter_color, const char* what,
                 bool allow_unknown, std::string& out) {
  out.clear();
  if (half.text.empty()) fail(std::string("empty ") + what + ": write '-' for none", half.col);
  if (half.text == "-") return true;
  if (half.text == "?") {
    if (allow_unknown) return false;
    fail(std::string("'?' is not allowed in the ") + what, half.col);
  }
  for (size_t i = 0; i < half.text.size(); ++i) {
    check_letter(order, half.text[i], letter_color, what, half.col + i);
    out.push_back(half.text[i]);
  }
  return true;
}

// Canonical tile order: K Q R B N P, then any other letter alphabetically.
int tile_rank(char ch) {
  size_t i = std::string_view("KQRBNP").find(upper(ch));
  return i != std::string_view::npos ? static_cast<int>(i) : 6 + (upper(ch) - 'A');
}
void sort_tiles(std::string& s) {
  std::stable_sort(s.begin(), s.end(), [](char a, char b) { return tile_rank(a) < tile_rank(b); });
}

bool piece_order(const std::pair<Coord, char>& a, const std::pair<Coord, char>& b) {
  if (a.first.y != b.first.y) return a.first.y > b.first.y;
  return a.first.x < b.first.x;
}

}  // namespace

ChessMePosition parse_chessme(std::string_view text, const TileRules& rules) {
  if (rules.hand_size < 0) fail("the hand size is negative", 0);
  const std::string order = letter_order(rules);
  // A side's set: its pile tiles plus its pieces in the setup, per type.
  std::array<std::vector<int>, 2> limit;
  for (int c = 0; c < 2; ++c) {
    limit[c].assign(order.size(), 0);
    for (char ch : rules.tiles)
      if (type_index(order, ch) >= 0) ++limit[c][static_cast<size_t>(type_index(order, ch))];
  }
  for (size_t i = 0; i < rules.setup.size(); ++i) {
    char ch = rules.setup[i];
    if ((i != 0 && rules.setup[i - 1] != ',') || !std::isalpha(static_cast<unsigned char>(ch))) continue;
    ++limit[std::isupper(static_cast<unsigned char>(ch)) ? 0 : 1][static_cast<size_t>(type_index(order, ch))];
  }
  static const char* kNames[6] = {"pieces",     "side to move",  "hands",
                                  "draw piles", "capture piles", "fullmove number"};
  std::vector<Field> fields = split_fields(text);
  if (fields.empty()) fail("empty position text", 0);
  if (fields.size() < 6) fail(std::string("missing field: ") + kNames[fields.size()], text.size());
  if (fields.size() > 6) fail("unexpected text after the fullmove number", fields[6].col);

  ChessMePosition p;
  // Columns of every tile, for the tile-count check: (colour, type, column) in text order.
  std::vector<std::array<size_t, 3>> tiles;

  // 1. Pieces.
  const Field& pf = fields[0];
  std::set<Coord> seen;
  std::array<int, 2> kings = {0, 0};
  std::array<size_t, 2> second_king = {0, 0};
  if (pf.text != "-") {
    size_t pos = 0;
    while (true) {
      if (pos >= pf.text.size()) fail("expected a piece letter", pf.col + pos);
      char ch = pf.text[pos];
      size_t item_col = pf.col + pos;
      if (ch == ',') fail("expected a piece letter", item_col);
      if (type_index(order, ch) < 0) fail(std::string("unknown piece letter '") + ch + "'", item_col);
      ++pos;
      std::optional<Coord> sq = parse_square(pf.text, pos);
      if (!sq) fail(std::string("bad square after '") + ch + "'", pf.col + pos);
      if (!seen.insert(*sq).second) fail("two pieces on " + square_name(*sq), item_col);
      int color = std::isupper(static_cast<unsigned char>(ch)) ? 0 : 1;
      if (type_index(order, ch) == 0 && ++kings[color] == 2) second_king[color] = item_col;
      p.pieces.push_back({*sq, ch});
      tiles.push_back({static_cast<size_t>(color), static_cast<size_t>(type_index(order, ch)), item_col});
      if (pos == pf.text.size()) break;
      if (pf.text[pos] != ',') fail("expected ',' between pieces", pf.col + pos);
      ++pos;
    }
  }
  std::sort(p.pieces.begin(), p.pieces.end(), piece_order);

  // 2. Side to move.
  if (fields[1].text == "w")
    p.side = Color::White;
  else if (fields[1].text == "b")
    p.side = Color::Black;
  else
    fail("side to move must be 'w' or 'b', not '" + std::string(fields[1].text) + "'", fields[1].col);

  // 3-5. Hands, draw piles, capture piles.
  std::array<Field, 2> hands = split_pair(fields[2], "hands");
  std::array<Field, 2> piles = split_pair(fields[3], "draw piles");
  std::array<Field, 2> caps = split_pair(fields[4], "capture piles");
  for (int c = 0; c < 2; ++c) {
    parse_tiles(order, hands[c], c, c == 0 ? "White hand" : "Black hand", false, p.hand[c]);
    const size_t most = static_cast<size_t>(rules.hand_size);
    if (p.hand[c].size() > most)
      fail(std::string(side_name(c)) + "'s hand holds " + plural(p.hand[c].size(), "tile") + ", at most " +
               std::to_string(most),
           hands[c].col + most);
  }
  for (int c = 0; c < 2; ++c)
    p.pile_known[c] =
        parse_tiles(order, piles[c], c, c == 0 ? "White draw pile" : "Black draw pile", true, p.pile[c]);
  for (int c = 0; c < 2; ++c)
    parse_tiles(order, caps[c], 1 - c, c == 0 ? "White capture pile" : "Black capture pile", false,
                p.captured[c]);

  // 6. Fullmove number.
  const Field& ff = fields[5];
  for (size_t i = 0; i < ff.text.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(ff.text[i])))
      fail("bad fullmove number '" + std::string(ff.text) + "': expected a number", ff.col + i);
  }
  auto n = parse_integer(ff.text, 0, INT32_MAX);
  if (!n)
    fail("bad fullmove number '" + std::string(ff.text) + "': at most " + std::to_string(INT32_MAX), ff.col);
  if (*n < 1) fail("fullmove number must be at least 1", ff.col);
  p.fullmove = static_cast<int>(*n);

  // Exactly one king each on the board.
  for (int c = 0; c < 2; ++c) {
    if (kings[c] == 0) fail(std::string(side_name(c)) + " has no king on the board", pf.col);
    if (kings[c] > 1)
      fail(std::string(side_name(c)) + " has more than one king on the board", second_king[c]);
  }

  // Tile counts: each side's board pieces, hand, draw pile and the opponent's capture pile.
  for (int c = 0; c < 2; ++c) {
    for (size_t i = 0; i < p.hand[c].size(); ++i)
      tiles.push_back(
          {static_cast<size_t>(c), static_cast<size_t>(type_index(order, p.hand[c][i])), hands[c].col + i});
  }
  for (int c = 0; c < 2; ++c) {
    for (size_t i = 0; i < p.pile[c].size(); ++i)
      tiles.push_back(
          {static_cast<size_t>(c), static_cast<size_t>(type_index(order, p.pile[c][i])), piles[c].col + i});
  }
  for (int c = 0; c < 2; ++c) {
    for (size_t i = 0; i < p.captured[c].size(); ++i)
      tiles.push_back({static_cast<size_t>(1 - c), static_cast<size_t>(type_index(order, p.captured[c][i])),
                       caps[c].col + i});
  }
  std::array<std::vector<int>, 2> count;
  for (int c = 0; c < 2; ++c) count[c].assign(order.size(), 0);
  for (const auto& t : tiles) {
    const int most = limit[t[0]][t[1]];
    if (++count[t[0]][t[1]] > most)
      fail(std::string("too many ") + order[t[1]] + " tiles for " + side_name(static_cast<int>(t[0])) +
               " (a set holds " + std::to_string(most) + ")",
           t[2]);
  }

  for (int c = 0; c < 2; ++c) {
    sort_tiles(p.hand[c]);
    sort_tiles(p.captured[c]);
  }
  return p;
}

std::string format_chessme(const ChessMePosition& p) {
  std::string out;
  std::vector<std::pair<Coord, char>> pieces = p.pieces;
  std::sort(pieces.begin(), pieces.end(), piece_order);
  for (size_t i = 0; i < pieces.size(); ++i) {
    if (i) out.push_back(',');
    out.push_back(pieces[i].second);
    out += square_name(pieces[i].first);
  }
  if (pieces.empty()) out.push_back('-');
  out += p.side == Color::White ? " w " : " b ";
  auto tiles = [](std::string s, bool sorted) {
    if (sorted) sort_tiles(s);
    return s.empty() ? std::string("-") : s;
  };
  out += tiles(p.hand[0], true) + "/" + tiles(p.hand[1], true) + " ";
  out += (p.pile_known[0] ? tiles(p.pile[0], false) : "?") + "/" +
         (p.pile_known[1] ? tiles(p.pile[1], false) : "?");
  out += " " + tiles(p.captured[0], true) + "/" + tiles(p.captured[1], true);
  out += " " + std::to_string(p.fullmove);
  return out;
}

std::string shuffle_tiles(std::string tiles, uint64_t seed, Color side) {
  uint64_t state = side == Color::White ? seed : seed ^ kSplitMixGamma;
  for (size_t i = tiles.size(); i-- > 1;) {
    size_t j = static_cast<size_t>(splitmix64_next(state) % (i + 1));
    std::swap(tiles[i], tiles[j]);
  }
  return tiles;
}

ChessMePosition chessme_start_position(uint64_t seed, const TileRules& rules) {
  if (rules.draw < 0 || rules.draw > rules.hand_size)
    throw PositionError("the start draws " + plural(rules.draw, "tile") + " into a hand of " +
                            std::to_string(rules.hand_size),
                        0);
  ChessMePosition p = parse_chessme(rules.setup + " w -/- -/- -/- 1", rules);
  for (int c = 0; c < 2; ++c) {
    std::string tiles;
    for (char ch : rules.tiles) tiles.push_back(upper(ch));
    tiles = shuffle_tiles(tiles, seed, c == 0 ? Color::White : Color::Black);
    if (c == 1)
      for (char& ch : tiles) ch = lower(ch);
    const size_t drawn = std::min(tiles.size(), static_cast<size_t>(rules.draw));
    p.hand[c] = tiles.substr(0, drawn);
    sort_tiles(p.hand[c]);
    p.pile[c] = tiles.substr(drawn);
    p.pile_known[c] = true;
  }
  return p;
}

std::string chessme_start(uint64_t seed, const TileRules& rules) {
  return format_chessme(chessme_start_position(seed, rules));
}

}  // namespace arb
