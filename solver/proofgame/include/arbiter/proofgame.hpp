// Proof games to a no-legal-move draw: the shortest sequence of legal turns from a position
// (the ChessMe start by default) that reaches a position where the side to move is not in
// check and has no legal action (ChessMe's draw, RULINGS 2.8; chess stalemate). Both sides
// cooperate: it is a single-agent search over every turn of either side. The search knows
// no variant: it drives any arb::Engine (legal_actions/apply/undo/status/hash).
//
// Two phases:
//   1. An upper bound (optional, `beam_width` > 0): a beam search, ply by ply, keeping the
//      positions where the side that is to be stuck has the fewest distinct moves (run once
//      for each side as the stuck one). It finds a draw game fast but proves nothing.
//   2. The proof: iterative deepening over the ply count d = 1, 2, ... of an exhaustive
//      depth-first search for a draw in exactly d plies, with a transposition table
//      holding, per position (the engine's hash: pieces, side, hands, piles, capture
//      piles), an r for which "no draw exactly r plies from here" is proved. Depth d is
//      searched only after every depth below it was refuted, so the first draw found is
//      a shortest one; when the beam's game has U plies and every d < U is refuted, that
//      game is a shortest one. Where the rules allow it (witness_filters_apply: ChessMe's
//      do), two filters skip, without applying them, the turns one and two plies before
//      a leaf that provably leave the stuck side a legal move (proofgame.cpp states the
//      argument; `last_turn_filter`).
// Conditions of the proof: the position fixes every draw (a ChessMe pile of known order,
// as the seeded start has: RULINGS 2.3; a pile marked `?` is refused), the game is the
// rules' (no draw by agreement), and "shortest" counts complete turns (RULINGS 2.4: a
// move and its optional placement are one ply).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "arbiter/engine.hpp"
#include "arbiter/lang/compile.hpp"

namespace arb::proofgame {

struct Progress {
  const char* phase = "";  // "beam" or "proof"
  int depth = 0;           // plies being searched
  uint64_t nodes = 0;      // actions applied so far (both phases)
  double seconds = 0;
};

struct Options {
  int max_plies = 8;       // the proof searches depths 1..max_plies (and below the beam's game)
  int beam_width = 300;    // 0: no beam phase
  int beam_plies = 24;     // the beam stops after this many plies
  uint64_t max_nodes = 0;  // proof phase budget in actions applied, 0: none
  double timeout = 0;      // seconds for both phases, 0: none
  size_t table_mb = 64;    // transposition table
  // One turn before a leaf, skip the turns that provably leave the other side a legal move
  // (see proofgame.cpp) instead of applying them. Sound only for rules that meet the
  // filters' conditions: set it from witness_filters_apply() (the command does).
  bool last_turn_filter = false;
  std::function<void(const Progress&)> progress;  // about every 0.25 s
};

struct Result {
  bool found = false;
  int plies = 0;                             // the game's length
  std::vector<std::string> line;             // the game in the canonical UCI-like notation
  std::vector<std::string> san;              // the same game in SAN (placements `B@a1`)
  std::string final_position;                // the draw position
  std::string found_by;                      // "proof" (exhaustive search) or "beam"
  int proved_none_within = 0;                // no draw within this many plies (proved, exhaustive)
  bool shortest = false;                     // found && proved_none_within == plies - 1
  std::string why;                           // what stopped the proof early ("" when it completed)
  uint64_t beam_nodes = 0, proof_nodes = 0;  // actions applied per phase
  uint64_t table_hits = 0;
  bool filter = false;                // the last-turn filter ran
  uint64_t filtered = 0;              // turns it skipped (each proved no draw without being applied)
  std::vector<uint64_t> depth_nodes;  // proof: actions applied at iteration d (index d-1)
  double seconds = 0;
};

// Is the side to move not in check and without any legal action?
bool no_move_draw(Engine& e);

// Searches from the engine's current position (left unchanged). Throws
// std::invalid_argument for options out of range or a position with a chance node.
Result search(const Engine& root, const Options& options);

// Whether the compiled rules meet the conditions under which the last-turn filters are
// sound (proofgame.cpp states the argument): the unbounded-grid back end (a capture takes
// only the piece on the target; no en passant, no castling), no action may leave a royal
// piece attacked, leaps reach at most two squares and riders run along lines. When not,
// `why` says which condition fails.
bool witness_filters_apply(const lang::Program& program, std::string* why = nullptr);

// Replays `line` (UCI-like or SAN texts) from `start` on `engine`, checking each turn is
// legal there, and that the last position is a no-move draw and none before it is.
// Returns "" when all holds, else what failed (the ply and the text).
std::string replay(Engine& engine, const std::string& start, const std::vector<std::string>& line);

}  // namespace arb::proofgame
