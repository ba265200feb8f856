// Which pieces the adapter's dead-position rule may count as chess minors (apart from
// fairy_stockfish.cpp): a letter is a knight or a bishop only if the engine moves it as one.
// Nightrider chess's `N` rides (a king and a nightrider can mate: no dead position), so the
// letters alone do not say it; the engine is asked where a lone piece on a central square may
// go, as it is for the king.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <exception>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "arbiter/notation.hpp"
#include "arbiter/text_fields.hpp"
#include "fsf/fairy_stockfish.hpp"

namespace arb::fsf {

namespace {

// The squares a chess `kind` ('K', 'N' or 'B') on (px, py) reaches on an empty w x h board.
std::vector<std::pair<int, int>> reach(char kind, int px, int py, int w, int h) {
  static const int kKing[8][2] = {{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}};
  static const int kKnight[8][2] = {{-2, -1}, {-2, 1}, {-1, -2}, {-1, 2}, {1, -2}, {1, 2}, {2, -1}, {2, 1}};
  static const int kBishop[4][2] = {{-1, -1}, {-1, 1}, {1, -1}, {1, 1}};
  std::vector<std::pair<int, int>> out;
  auto inside = [&](int x, int y) { return x >= 0 && y >= 0 && x < w && y < h; };
  if (kind == 'B') {
    for (const auto& d : kBishop)
      for (int x = px + d[0], y = py + d[1]; inside(x, y); x += d[0], y += d[1]) out.push_back({x, y});
    return out;
  }
  for (const auto& d : kind == 'K' ? kKing : kKnight)
    if (inside(px + d[0], py + d[1])) out.push_back({px + d[0], py + d[1]});
  return out;
}

}  // namespace

bool FairyStockfishEngine::moves_as(char kind, char letter) const {
  if (letters_.find(letter) == std::string::npos || width_ < 5 || height_ < 5) return false;
  const int w = width_, h = height_, px = (w - 1) / 2, py = (h - 1) / 2;
  const auto lines = reach(kind, px, py, w, h);
  auto on_lines = [&](int x, int y) {
    return (x == px && y == py) || std::find(lines.begin(), lines.end(), std::make_pair(x, y)) != lines.end();
  };
  // White's king (unless it is the piece probed) and Black's on squares off the piece's lines,
  // apart: nothing blocks the piece, and neither king is in check.
  std::vector<char> board(static_cast<size_t>(w * h), 0);
  board[static_cast<size_t>(py * w + px)] = letter;
  int kx = -1, ky = -1;
  for (int y = h - 1; y >= 0 && kx < 0 && kind != 'K'; --y)
    for (int x = 0; x < w && kx < 0; ++x)
      if (!on_lines(x, y)) kx = x, ky = y;
  if (kind != 'K') {
    if (kx < 0) return false;
    board[static_cast<size_t>(ky * w + kx)] = 'K';
  } else {
    kx = px, ky = py;
  }
  bool placed = false;
  for (int y = 0; y < h && !placed; ++y)
    for (int x = w - 1; x >= 0 && !placed; --x)
      if (!on_lines(x, y) && std::max(std::abs(x - kx), std::abs(y - ky)) > 1) {
        board[static_cast<size_t>(y * w + x)] = 'k';
        placed = true;
      }
  if (!placed) return false;
  std::vector<std::string> ranks;  // the top rank first
  for (int y = h - 1; y >= 0; --y) {
    ranks.emplace_back();
    for (int x = 0; x < w; ++x) {
      const char c = board[static_cast<size_t>(y * w + x)];
      ranks.back().push_back(c ? c : '.');
    }
  }
  const std::string rows = board_field(ranks);
  const std::string from = square_name(Coord{px, py + 1});
  std::set<std::string> want, got;
  for (const auto& [x, y] : lines) want.insert(from + square_name(Coord{x, y + 1}));
  try {
    for (const std::string& m : query(rows + " w - - 0 1", {}).moves)
      if (m.compare(0, from.size(), from) == 0 && !std::isdigit(static_cast<unsigned char>(m[from.size()])))
        got.insert(m);
  } catch (const std::exception&) {
    return false;  // the engine refuses the probe: the letter is not counted as that piece
  }
  return got == want;
}

}  // namespace arb::fsf
