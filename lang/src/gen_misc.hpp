// Odd rules of Fairy-Stockfish's catalogue (issue 24) on the bitboard back end, kept apart
// from generator.cpp's move loop: `draw-odds white|black` (armageddon: every draw is that
// colour's win) and `legal { royal-stays-in-check }` (makpong: a royal piece in check may
// move only to take its single checker). The generator calls these only when the program
// states them (Program::draw_odds, royal_stays_in_check); the latter's filter is
// Generator::royal_in_check_targets.
#pragma once

#include <string>

#include "arbiter/engine.hpp"
#include "arbiter/lang/bitboard.hpp"

namespace arb::lang::misc {

// `draw-odds`: a drawn verdict becomes the win of colour `odds` (0 White, 1 Black), its
// reason naming the rule: "stalemate, draw odds".
inline void apply_draw_odds(int odds, Status& st) {
  if (odds < 0 || st.result != Result::Draw) return;
  st.result = odds == 0 ? Result::WhiteWins : Result::BlackWins;
  st.reason += ", draw odds";
}

// `must-drop LETTER` (Fairy-Stockfish's mustDrop, mustDropType): while the side holds the
// type in hand, drops of other types are illegal, and every other action is illegal when a
// legal drop of it exists (in check too: FSF then looks for a dropping evasion). In place.
template <class Vec, class IsDrop, class IsType>
void keep_must_drops(Vec& moves, IsDrop&& is_drop, IsType&& of_type) {
  size_t n = 0;
  bool any = false;
  for (size_t i = 0; i < moves.size(); ++i) {
    if (is_drop(moves[i]) && !of_type(moves[i])) continue;
    any = any || is_drop(moves[i]);
    moves[n++] = moves[i];
  }
  moves.resize(n);
  if (!any) return;
  n = 0;
  for (size_t i = 0; i < moves.size(); ++i)
    if (is_drop(moves[i])) moves[n++] = moves[i];
  moves.resize(n);
}

}  // namespace arb::lang::misc
