#include "arbiter/fen.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>

#include "arbiter/numbers.hpp"

namespace arb {

namespace {

struct Cursor {
  std::string_view s;
  size_t pos = 0;
  void skip_spaces() {
    while (pos < s.size() && (s[pos] == ' ' || s[pos] == '\t')) ++pos;
  }
  bool done() const { return pos >= s.size(); }
  std::string_view field() {
    size_t start = pos;
    while (pos < s.size() && s[pos] != ' ' && s[pos] != '\t') ++pos;
    return s.substr(start, pos - start);
  }
};

// Largest halfmove clock, fullmove number or rank read: the largest the engines store
// (int), so that every counter an engine prints reads back.
constexpr int64_t kMaxCounter = INT32_MAX;

[[noreturn]] void fail(const std::string& msg, size_t col) {
  throw PositionError(msg, col);
}

int parse_int(std::string_view f, size_t col, const char* what) {
  for (size_t i = 0; i < f.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(f[i])))
      fail(std::string("bad ") + what + " '" + std::string(f) + "': expected a number", col + i);
  auto v = parse_integer(f, 0, kMaxCounter);
  if (!v)
    fail(std::string("bad ") + what + " '" + std::string(f) + "': at most " + std::to_string(kMaxCounter),
         col);
  return static_cast<int>(*v);
}

}  // namespace

FenFields parse_fen(std::string_view text, int width, int height, std::string_view allowed) {
  FenFields f;
  f.width = width;
  f.height = height;
  f.cells.assign(static_cast<size_t>(width) * height, 0);
  Cursor c{text};
  c.skip_spaces();
  if (c.done()) fail("empty position text", 0);
  // Board.
  int y = height, x = 0;
  size_t rank_start = c.pos;
  while (!c.done() && c.s[c.pos] != ' ' && c.s[c.pos] != '\t' && c.s[c.pos] != '[') {
    char ch = c.s[c.pos];
    if (ch == '/') {
      if (x != width)
        fail("rank " + std::to_string(y) + " has " + std::to_string(x) + " squares, expected " +
                 std::to_string(width),
             rank_start);
      --y;
      x = 0;
      if (y < 1) fail("too many ranks, expected " + std::to_string(height), c.pos);
      ++c.pos;
      rank_start = c.pos;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(ch))) {
      // The count saturates just past the width: a long run of digits can neither wrap
      // around nor reach past the rank.
      int n = 0;
      size_t start = c.pos;
      while (!c.done() && std::isdigit(static_cast<unsigned char>(c.s[c.pos])))
        n = std::min(n * 10 + (c.s[c.pos++] - '0'), width + 1);
      if (n == 0) fail("empty-square count 0", start);
      x += n;
      if (x > width) fail("rank " + std::to_string(y) + " is longer than " + std::to_string(width), start);
      continue;
    }
    if (ch == '~') fail("a promoted mark '~' must follow a piece letter", c.pos);
    bool plus = false;
    if (ch == '+') {
      if (allowed.find('+') == std::string_view::npos)
        fail("this variant writes no promoted pieces as `+X`: unexpected '+'", c.pos);
      ++c.pos;
      if (c.done() || !std::isalpha(static_cast<unsigned char>(c.s[c.pos])))
        fail("a promoted mark '+' must precede a piece letter", c.pos - 1);
      ch = c.s[c.pos];
      plus = true;
    }
    if (allowed.find(ch) == std::string_view::npos)
      fail(std::string("unknown piece letter '") + ch + "'", c.pos);
    if (x >= width) fail("rank " + std::to_string(y) + " is longer than " + std::to_string(width), c.pos);
    f.cells[static_cast<size_t>(y - 1) * width + x] = ch;
    if (plus) {
      f.plus.resize(f.cells.size(), false);
      f.plus[static_cast<size_t>(y - 1) * width + x] = true;
    }
    ++x;
    ++c.pos;
    if (!c.done() && c.s[c.pos] == '~') {
      if (allowed.find('~') == std::string_view::npos)
        fail("this variant marks no promoted pieces: unexpected '~'", c.pos);
      f.promoted.resize(f.cells.size(), false);
      f.promoted[static_cast<size_t>(y - 1) * width + x - 1] = true;
      ++c.pos;
    }
  }
  if (y != 1 || x != width) {
    if (y != 1)
      fail("too few ranks: got " + std::to_string(height - y + 1) + ", expected " + std::to_string(height),
           c.pos);
    fail("rank 1 has " + std::to_string(x) + " squares, expected " + std::to_string(width), rank_start);
  }
  // Reserve.
  if (!c.done() && c.s[c.pos] == '[') {
    f.has_reserve = true;
    ++c.pos;
    while (!c.done() && c.s[c.pos] != ']') {
      char ch = c.s[c.pos];
      if (ch != '-' && (ch == '~' || ch == '+' || allowed.find(ch) == std::string_view::npos))
        fail(std::string("unknown piece letter '") + ch + "' in the reserve", c.pos);
      if (ch != '-') f.reserve.push_back(ch);
      ++c.pos;
    }
    if (c.done()) fail("reserve not closed: expected ']'", c.pos);
    ++c.pos;
  }
  // Side to move.
  c.skip_spaces();
  if (c.done()) fail("missing side to move (w or b)", c.pos);
  size_t col = c.pos;
  std::string_view side = c.field();
  if (side == "w")
    f.side = Color::White;
  else if (side == "b")
    f.side = Color::Black;
  else
    fail("side to move must be 'w' or 'b', not '" + std::string(side) + "'", col);
  // Castling.
  c.skip_spaces();
  if (c.done()) return f;
  col = c.pos;
  f.castling = std::string(c.field());
  for (size_t i = 0; i < f.castling.size(); ++i) {
    char ch = f.castling[i];
    bool ok = ch == '-' || ch == 'K' || ch == 'Q' || ch == 'k' || ch == 'q' ||
              (ch >= 'A' && ch < 'A' + width) || (ch >= 'a' && ch < 'a' + width);
    if (!ok) fail(std::string("bad castling field character '") + ch + "'", col + i);
  }
  if (f.castling.size() > 1 && f.castling.find('-') != std::string::npos)
    fail("castling field mixes '-' with rights", col);
  // En passant.
  c.skip_spaces();
  if (c.done()) return f;
  col = c.pos;
  std::string_view ep = c.field();
  if (ep != "-") {
    // One square (`e3`) or Fairy-Stockfish's list of squares (`f3g4`, `b9b10`): a file
    // letter and its rank digits, repeated.
    for (size_t i = 0; i < ep.size();) {
      const size_t at = i;
      if (ep[i] < 'a' || ep[i] >= 'a' + width)
        fail("bad en-passant square '" + std::string(ep) + "'", col + i);
      size_t j = i + 1;
      while (j < ep.size() && ep[j] >= '0' && ep[j] <= '9') ++j;
      if (j == i + 1) fail("bad en-passant square '" + std::string(ep) + "'", col + i);
      int r = parse_int(ep.substr(i + 1, j - i - 1), col + i + 1, "en-passant rank");
      if (r < 1 || r > height)
        fail("en-passant square '" + std::string(ep.substr(at, j - at)) + "' is off the board", col + at);
      const Coord sq{ep[i] - 'a', r};
      if (!f.ep)
        f.ep = sq;
      else
        f.ep_more.push_back(sq);
      i = j;
    }
  }
  // Fairy-Stockfish's check counter `W+B` (checks still to give), when present.
  c.skip_spaces();
  if (c.done()) return f;
  col = c.pos;
  std::string_view hm = c.field();
  if (size_t plus = hm.find('+'); plus != std::string_view::npos) {
    std::string_view w = hm.substr(0, plus), b = hm.substr(plus + 1);
    if (w.empty() || b.empty() || w.size() > 3 || b.size() > 3)
      fail("bad check counter '" + std::string(hm) + "': expected W+B, e.g. 3+3", col);
    f.checks_remaining =
        std::array<int, 2>{parse_int(w, col, "check counter"), parse_int(b, col + plus + 1, "check counter")};
    c.skip_spaces();
    if (c.done()) return f;
    col = c.pos;
    hm = c.field();
  }
  // Counters (optional: EPD lines stop after the en-passant field).
  if (hm.find(';') != std::string_view::npos || !std::isdigit(static_cast<unsigned char>(hm[0])))
    fail("bad halfmove clock '" + std::string(hm) + "'", col);
  f.halfmove = parse_int(hm, col, "halfmove clock");
  c.skip_spaces();
  if (c.done()) return f;
  col = c.pos;
  f.fullmove = parse_int(c.field(), col, "fullmove number");
  if (f.fullmove < 1) fail("fullmove number must be at least 1", col);
  c.skip_spaces();
  if (!c.done()) fail("unexpected text after the fullmove number", c.pos);
  return f;
}

std::string format_fen(const FenFields& f) {
  std::string out;
  for (int y = f.height; y >= 1; --y) {
    int empty = 0;
    for (int x = 0; x < f.width; ++x) {
      char ch = f.at(Coord{x, y});
      if (!ch) {
        ++empty;
        continue;
      }
      if (empty) out += std::to_string(empty);
      empty = 0;
      const size_t i = static_cast<size_t>(y - 1) * f.width + x;
      if (i < f.plus.size() && f.plus[i]) out.push_back('+');
      out.push_back(ch);
      if (i < f.promoted.size() && f.promoted[i]) out.push_back('~');
    }
    if (empty) out += std::to_string(empty);
    if (y > 1) out.push_back('/');
  }
  if (f.has_reserve) out += "[" + f.reserve + "]";
  out += f.side == Color::White ? " w " : " b ";
  out += f.castling.empty() ? "-" : f.castling;
  out += " ";
  out += f.ep ? std::string(1, static_cast<char>('a' + f.ep->x)) + std::to_string(f.ep->y) : "-";
  if (f.ep)
    for (const Coord& c : f.ep_more)
      out += std::string(1, static_cast<char>('a' + c.x)) + std::to_string(c.y);
  if (f.checks_remaining)
    out += " " + std::to_string((*f.checks_remaining)[0]) + "+" + std::to_string((*f.checks_remaining)[1]);
  out += " " + std::to_string(f.halfmove) + " " + std::to_string(f.fullmove);
  return out;
}

namespace {
int king_file(const FenFields& f, Color c, char king, size_t col, int rel_rank) {
  int rank = c == Color::White ? rel_rank : f.height + 1 - rel_rank;
  char k = c == Color::White ? king : static_cast<char>(std::tolower(king));
  int found = -1;
  for (int x = 0; x < f.width; ++x)
    if (f.at(Coord{x, rank}) == k) {
      if (found >= 0) fail("castling right given but two kings stand on the back rank", col);
      found = x;
    }
  if (found < 0)
    fail(std::string("castling right for ") + (c == Color::White ? "White" : "Black") +
             " but no king on its back rank",
         col);
  return found;
}
}  // namespace

std::vector<CastlingRight> resolve_castling(const FenFields& f, char king, char rook) {
  return resolve_castling(f, king, std::string(1, rook), 1);
}

std::vector<CastlingRight> resolve_castling(const FenFields& f, char king, const std::string& rooks,
                                            int rel_rank) {
  std::vector<CastlingRight> rights;
  if (f.castling == "-" || f.castling.empty()) return rights;
  for (size_t i = 0; i < f.castling.size(); ++i) {
    char ch = f.castling[i];
    Color c = std::isupper(static_cast<unsigned char>(ch)) ? Color::White : Color::Black;
    int rank = c == Color::White ? rel_rank : f.height + 1 - rel_rank;
    auto is_rook = [&](char piece) {
      if (!piece || (c == Color::White) != (std::isupper(static_cast<unsigned char>(piece)) != 0))
        return false;
      return rooks.find(static_cast<char>(std::toupper(static_cast<unsigned char>(piece)))) !=
             std::string::npos;
    };
    int kf = king_file(f, c, king, i, rel_rank);
    int file = -1;
    char up = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    if (up == 'K') {
      for (int x = f.width - 1; x > kf; --x)
        if (is_rook(f.at(Coord{x, rank}))) {
          file = x;
          break;
        }
    } else if (up == 'Q') {
      for (int x = 0; x < kf; ++x)
        if (is_rook(f.at(Coord{x, rank}))) {
          file = x;
          break;
        }
    } else {
      file = up - 'A';
      if (file >= f.width || !is_rook(f.at(Coord{file, rank}))) file = -1;
    }
    if (file < 0) fail(std::string("castling right '") + ch + "' names no rook on the back rank", i);
    CastlingRight cr{c, file};
    for (const auto& e : rights)
      if (e == cr) fail(std::string("castling right '") + ch + "' given twice", i);
    rights.push_back(cr);
  }
  return rights;
}

std::string format_castling(const FenFields& f, const std::vector<CastlingRight>& rights, char king,
                            char rook) {
  return format_castling(f, rights, king, std::string(1, rook), 1);
}

std::string format_castling(const FenFields& f, const std::vector<CastlingRight>& rights, char king,
                            const std::string& rooks, int rel_rank) {
  std::string out;
  for (Color c : {Color::White, Color::Black}) {
    int rank = c == Color::White ? rel_rank : f.height + 1 - rel_rank;
    char k = c == Color::White ? king : static_cast<char>(std::tolower(king));
    auto is_rook = [&](char piece) {
      if (!piece || (c == Color::White) != (std::isupper(static_cast<unsigned char>(piece)) != 0))
        return false;
      return rooks.find(static_cast<char>(std::toupper(static_cast<unsigned char>(piece)))) !=
             std::string::npos;
    };
    int kf = -1;
    for (int x = 0; x < f.width; ++x)
      if (f.at(Coord{x, rank}) == k) kf = x;
    // King side first (K), then queen side (Q), as in KQkq.
    for (int side = 0; side < 2; ++side) {
      for (const auto& cr : rights) {
        if (cr.color != c) continue;
        bool king_side = kf >= 0 && cr.rook_file > kf;
        if ((side == 0) != king_side) continue;
        bool outermost = true;
        if (king_side) {
          for (int x = cr.rook_file + 1; x < f.width; ++x)
            if (is_rook(f.at(Coord{x, rank}))) outermost = false;
        } else {
          for (int x = 0; x < cr.rook_file; ++x)
            if (is_rook(f.at(Coord{x, rank}))) outermost = false;
        }
        char ch = outermost ? (king_side ? 'K' : 'Q') : static_cast<char>('A' + cr.rook_file);
        out.push_back(c == Color::White ? ch : static_cast<char>(std::tolower(ch)));
      }
    }
  }
  return out.empty() ? "-" : out;
}

}  // namespace arb
