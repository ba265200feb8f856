// Janggi's end conditions on the bitboard back end (issue 24), kept apart from
// generator.cpp's move loop: `double-pass -> RESULT`, `royals-facing -> RESULT` (bikjang)
// and `counting white-needs N`. The generator's section "passes, facing royals, counting"
// decides when they apply; this file decides the result.
//
// How Fairy-Stockfish behaves, and so how these do (its position.cpp, movegen.cpp): the
// pass is the king's move to its own square, legal when the king is not attacked, and
// always in bikjang; two passes in a row, or a pass in bikjang (the position and the one
// before both bikjang), end the game at once (is_immediate_game_end: no legal move, perft
// counts 0 below); the result is a draw, or with material counting the count's
// (material_counting_result: White wins when its material exceeds Black's by more than
// the komi, else Black).
#pragma once

#include "arbiter/engine.hpp"
#include "gen_ends.hpp"

namespace arb::lang::pass {

// The verdict of an end `value` (0: a draw, Program::kCounted: by counting) from the
// pieces' points of each side; `needs`: how many points White must lead by.
inline ends::Verdict verdict(Termination end, int value, int white, int black, int needs) {
  ends::Verdict v;
  v.over = true;
  v.end = end;
  v.reason = end == Termination::DoublePass ? "double-pass" : "royals-facing";
  if (value == 0)
    v.result = Result::Draw;
  else
    v.result = white - black >= needs ? Result::WhiteWins : Result::BlackWins;
  return v;
}

}  // namespace arb::lang::pass
