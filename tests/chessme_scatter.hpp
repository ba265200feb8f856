// Random ChessMe positions for the tests that compare engines on positions no game
// reaches easily (tests/conformance_chessme_test.cpp, tests/chessme_agreement_test.cpp):
// two kings in a 9x9 window, up to seven more pieces a side (one in six up to 30 squares
// away), random hands, capture piles and draw piles. The text or an engine may refuse one;
// the caller skips those.
#pragma once

#include <algorithm>
#include <cctype>
#include <random>
#include <set>
#include <string>

#include "arbiter/chessme_text.hpp"

namespace chessme_scatter {

struct Options {
  size_t captured_kinds = 3;     // a capture pile holds rng() % captured_kinds pieces
  bool hide_piles = false;       // one draw pile in eight is unknown
  bool random_fullmove = false;  // the fullmove number drawn from 1..40 (else 1)
};

inline std::string swap_case(std::string s) {
  for (char& c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    c = static_cast<char>(std::isupper(u) ? std::tolower(u) : std::toupper(u));
  }
  return s;
}

inline arb::ChessMePosition scattered_position(std::mt19937_64& rng, const Options& o = {}) {
  using arb::Coord;
  arb::ChessMePosition p;
  std::set<Coord> used;
  auto free_square = [&](int spread) {
    while (true) {
      Coord c{static_cast<int32_t>(rng() % spread) - spread / 2,
              static_cast<int32_t>(rng() % spread) - spread / 2};
      if (used.insert(c).second) return c;
    }
  };
  const std::string types = "QRRBBNNPPPPPPPP";
  p.pieces.push_back({free_square(9), 'K'});
  p.pieces.push_back({free_square(9), 'k'});
  for (int c = 0; c < 2; ++c) {
    std::string pool = types;
    std::shuffle(pool.begin(), pool.end(), rng);
    const size_t n = rng() % 8;
    for (size_t i = 0; i < n; ++i) {
      const char ty = pool[i];
      p.pieces.push_back(
          {free_square(rng() % 6 == 0 ? 60 : 9), c ? static_cast<char>(std::tolower(ty)) : ty});
    }
    const std::string rest = pool.substr(n);
    const size_t h = std::min<size_t>(rng() % 4, rest.size());
    p.hand[c] = c ? swap_case(rest.substr(0, h)) : rest.substr(0, h);
    const size_t k = std::min<size_t>(rng() % o.captured_kinds, rest.size() - h);
    // Pieces of colour c captured by the opponent sit in the opponent's pile.
    p.captured[1 - c] = c ? swap_case(rest.substr(h, k)) : rest.substr(h, k);
    p.pile[c] = c ? swap_case(rest.substr(h + k, 2)) : rest.substr(h + k, 2);
    if (o.hide_piles) {
      p.pile_known[c] = rng() % 8 != 0;
      if (!p.pile_known[c]) p.pile[c].clear();
    }
  }
  p.side = rng() % 2 ? arb::Color::White : arb::Color::Black;
  if (o.random_fullmove) p.fullmove = 1 + static_cast<int>(rng() % 40);
  return p;
}

}  // namespace chessme_scatter
