// Flipping pieces and passes on the bitboard back end (issue 24: ataxx, Reversi), kept
// apart from generator.cpp's move loop: the squares a `converts` piece turns to its side,
// the placement conditions (`adjacent-to own`, `encloses [opening REGION]`) and the end of
// a game by a full board or by passes. The generator calls these only when the program
// states one of them (Program::flips), so a program without them pays one test of a flag
// per make and per generation.
//
// How Fairy-Stockfish behaves, and so how these do (its position.h drop_region(),
// position.cpp do_move() and is_immediate_game_end(), movegen.cpp):
//  - `flipEnclosedPieces = ATAXX`: after a move or a drop, every enemy piece next to the
//    destination (king distance 1) becomes the mover's; `REVERSI`: every enemy piece on a
//    line from the destination that a piece of the mover closes (no empty square between).
//  - `enclosingDrop = ATAXX`: a drop only next to an own piece; `REVERSI`: only where it
//    closes such a line; `enclosingDropStart`: while a square of it is empty, drops go
//    there only, closing nothing.
//  - `passOnStalemate`: a side with a piece on the board and no other legal move passes
//    (the move is legal only then).
//  - `adjudicateFullBoard`, two passes in a row: the game is over (generate<LEGAL> returns
//    nothing, so perft counts 0 below), and `materialCounting` gives the win to the side
//    with more pieces on the board.
#pragma once

#include "arbiter/engine.hpp"
#include "arbiter/lang/bitboard.hpp"
#include "gen_ends.hpp"

namespace arb::lang::flip {

// The nearest square of `set` along unit direction d from s (exclusive), or -1.
template <class BB>
int nearest(const BoardTables<BB>& t, int d, int s, const BB& set) {
  const BB b = t.ray[d][s] & set;
  if (!b) return -1;
  return (kDirUp >> d & 1) ? bb::lsb(b) : bb::msb(b);
}

// The enemy pieces (`opp`) a piece of the side owning `own` encloses from square s: on each
// line from s, the run of enemy pieces up to the first square that holds none, when that
// square holds an own piece. With `any_only`, stops at the first such run.
template <class BB>
BB enclosed(const BoardTables<BB>& t, int s, const BB& own, const BB& opp, bool any_only = false) {
  BB out{};
  const BB stop = t.board_mask & ~opp;
  for (int d = 0; d < 8; ++d) {
    if (!(t.adjacent[s] & t.ray[d][s] & opp)) continue;  // the first square holds no enemy piece
    const int q = nearest(t, d, s, stop);
    if (q < 0 || !bb::test(own, q)) continue;
    out |= t.between(s, q);
    if (any_only) return out;
  }
  return out;
}

// The squares a piece with conversion `r` landing on `to` converts.
template <class BB>
BB converted(const BoardTables<BB>& t, const PieceProgram::Removal& r, int to, const BB& own, const BB& opp) {
  if (r.victims == PieceProgram::Removal::Victims::Around) return t.adjacent[to] & opp;
  return enclosed(t, to, own, opp);
}

// The squares of `zone` (empty squares) where side `us` may place, by the program's
// placement conditions.
template <class BB>
BB drop_zone(const Program& p, const BoardTables<BB>& t, int us, BB zone, const BB& own, const BB& opp) {
  const Program::Flips& f = p.flips;
  if (f.opening_region >= 0) {
    const BB open = t.opening[us] & ~(own | opp);
    if (open) return zone & open;
  }
  if (f.place_adjacent_own) {
    BB near{};
    for (BB b = own; b; bb::clear_lsb(b)) near |= t.adjacent[bb::lsb(b)];
    zone &= near;
  }
  if (f.place_encloses) {
    BB keep{};
    BB cand = zone;
    {
      BB near{};  // only a square next to an enemy piece may enclose
      for (BB b = opp; b; bb::clear_lsb(b)) near |= t.adjacent[bb::lsb(b)];
      cand &= near;
    }
    for (; cand; bb::clear_lsb(cand)) {
      const int s = bb::lsb(cand);
      if (enclosed(t, s, own, opp, true)) keep |= bb::bit<BB>(s);
    }
    zone = keep;
  }
  return zone;
}

// The side with more pieces on the board wins (`most-pieces`); as many: a draw.
inline Result most_pieces(int white, int black) {
  return white == black ? Result::Draw : white > black ? Result::WhiteWins : Result::BlackWins;
}

// The end of the game by a full board (`board-full`) or by `passes` passes in a row (the
// number of passes that ended the plies so far, newest last).
inline ends::Verdict over(const Program& p, bool full, int passes_in_row, int white, int black) {
  ends::Verdict v;
  if (p.flips.end_passes > 0 && passes_in_row >= p.flips.end_passes) {
    v.end = Termination::Passes;
    v.reason = "passes";
  } else if (p.flips.end_board_full && full) {
    v.end = Termination::BoardFull;
    v.reason = "board-full";
  } else {
    return v;
  }
  v.over = true;
  v.result = most_pieces(white, black);
  return v;
}

}  // namespace arb::lang::flip
