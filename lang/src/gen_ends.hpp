// Issue 24's end conditions, counters and forced capture on the bitboard back end, kept
// apart from generator.cpp's move loop: `extinction ... -> RESULT`, `checks N -> win` (with
// the position's check counter) and `legal { must-capture }`. The generator calls these
// only when the program states one of them (Program::extinctions, checks_to_win,
// must_capture), so a program without them pays one test of a flag per generation.
//
// How Fairy-Stockfish behaves, and so how these do (its position.cpp, movegen.cpp): a game
// ended by extinction or by the last check has no legal move at all (generate<LEGAL>
// returns none after is_immediate_game_end), so perft counts 0 below such a position;
// `must-capture` keeps the legal captures when there is one (Position::has_capture looks at
// legal captures only; castling is no capture, en passant is).
#pragma once

#include <array>
#include <cstdint>

#include "arbiter/engine.hpp"
#include "arbiter/lang/bitboard.hpp"
#include "arbiter/random.hpp"

namespace arb::lang::ends {

// The verdict on a position whose game a counted end condition has ended.
struct Verdict {
  bool over = false;
  Result result = Result::Ongoing;
  Termination end = Termination::None;
  const char* reason = "";
};

// The result of `value` (-1 loss, 0 draw, 1 win) for colour c.
inline Result result_for(int c, int value) {
  if (value == 0) return Result::Draw;
  const bool white_wins = (c == 0) == (value > 0);
  return white_wins ? Result::WhiteWins : Result::BlackWins;
}

// Extinction, as Fairy-Stockfish's is_immediate_game_end judges it: the side that just
// moved first, then the side to move (`stm`); for each rule and each type it lists (or all
// pieces together), a side holding at most `at_most` while the other holds at least
// `opponent_at_least` (one more against the side to move with `claim`: it may still bare
// back) has the rule's result. count(c, t) is what colour c holds of type t, board and
// reserve; t < 0: every piece together.
template <class Count>
Verdict extinction(const Program& p, int stm, Count&& count) {
  Verdict v;
  for (int c : {stm ^ 1, stm})
    for (const Program::Extinction& e : p.extinctions) {
      const int need = e.opponent_at_least + (e.claim && c == stm ? 1 : 0);
      auto extinct = [&](int t) { return count(c, t) <= e.at_most && count(c ^ 1, t) >= need; };
      bool hit = e.all && extinct(-1);
      for (uint32_t m = e.types; m && !hit; m &= m - 1) hit = extinct(__builtin_ctz(m));
      if (hit) {
        v.over = true;
        v.result = result_for(c, e.value);
        v.end = Termination::Extinction;
        v.reason = "extinction";
        return v;
      }
    }
  return v;
}

// `checks N -> win`: the side that just moved has no check left to give.
inline Verdict checks(int stm, const std::array<int8_t, 2>& left) {
  Verdict v;
  if (left[stm ^ 1] > 0) return v;
  v.over = true;
  v.result = result_for(stm ^ 1, 1);
  v.end = Termination::ChecksGiven;
  v.reason = "checks";
  return v;
}

// The hash of colour c with `left` checks still to give (left 0..9: the FEN's digits).
inline uint64_t check_key(int c, int left) {
  return splitmix64_mix(kSplitMixGamma * static_cast<uint64_t>(c * 16 + left + 1) + 0xC3C4EC4Bull);
}

// The result of a position without a legal action for the side to move, by the ruleset's
// `checkmate -> ...` (in check) or `stalemate -> ...` (not in check). `more`: how many
// more pieces the side to move holds than the other (`stalemate ... when fewer-pieces`).
inline Verdict no_move(const Program& p, int stm, bool in_check, int more = 0) {
  Verdict v;
  v.over = true;
  int value = in_check ? p.checkmate_value : p.stalemate_value;
  if (!in_check && p.stalemate_by_count) value = more == 0 ? 0 : more < 0 ? value : -value;
  v.result = result_for(stm, value);
  v.end = in_check ? Termination::Checkmate : Termination::Stalemate;
  v.reason = in_check ? "checkmate" : "stalemate";
  return v;
}

// `must-capture`: keeps only the captures of `moves` when there is one (in place).
template <class Vec, class IsCapture>
void keep_captures(Vec& moves, IsCapture&& is_capture) {
  size_t n = 0;
  for (size_t i = 0; i < moves.size(); ++i)
    if (is_capture(moves[i])) moves[n++] = moves[i];
  if (n) moves.resize(n);
}

}  // namespace arb::lang::ends
