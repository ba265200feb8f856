// Forced wins: proves that the side to move (the prover) can force a win, a checkmate or a
// drawn ending within N of its own moves, or that it cannot, for any engine behind
// arb::Engine. The solver knows no variant: the win conditions are what Engine::status()
// reports (result + reason), chance is Engine::chance()/chance_outcomes().
//
// Search: iterative deepening on N (1, 2, ...); with one thread each depth goes first to
// proof-number search (df-pn over (position, moves left), mobility-initialised numbers)
// within a budget of the work done before, then to the alpha-beta search below, both
// sharing the table (Options::proof_numbers). The alpha-beta search is a depth-limited
// AND/OR proof search (boolean alpha-beta: a prover node needs one proving move, a defender node needs every
// reply proved) with a shared transposition table holding, per position, the smallest
// depth at which a win was proved and the largest at which none exists. Move ordering:
// the table's move, then, for the prover, moves that give check first and among them
// those that leave the defender the fewest replies (the mobility heuristic of problem
// solvers); for the defender the table's refutation, then killer replies where one
// prover move is left and, deeper, the replies that leave the prover fewest moves (the
// mirror of the prover's ordering; df-pn's disproof numbers count the same). Because
// every depth below N is searched and refuted first, a win in N is reported only when
// none in fewer exists. `--jobs` splits the root moves between threads sharing the table.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "arbiter/engine.hpp"

namespace arb::solve {

// What the prover must reach: Win = any terminal the prover wins (checkmate, Chess 2's
// no-legal-move loss and midline invasion, royal capture, ...); Mate = a won terminal
// whose reason is "checkmate"; Draw = a terminal whose result is a draw (stalemate where
// it is a draw, ChessMe's no-legal-move draw, insufficient material) or a prover win: the
// prover forces the game to end no worse than a draw.
enum class Goal { Win, Mate, Draw };

// Chance nodes (Engine::chance()):
//   Known       the position must fix every draw: meeting a chance node makes the
//               lines through it unknown ("the position does not fix the draw");
//   Adversarial a chance node is a defender (AND) node: a proof holds whatever is drawn;
//   Expected    expectimax: the probability that the prover, playing to maximise it,
//               wins within N against a defender minimising it, draws weighted as the
//               engine states.
enum class Chance { Known, Adversarial, Expected };

struct Progress {
  int depth = 0;  // the depth being searched
  uint64_t nodes = 0;
  double seconds = 0;
};

struct Options {
  Goal goal = Goal::Win;
  int depth = 1;  // N: the prover's moves, 1..kMaxDepth
  bool all_keys = false;
  Chance chance = Chance::Known;
  uint64_t max_nodes = 0;  // 0: no budget
  double timeout = 0;      // seconds, 0: none
  int jobs = 1;
  size_t table_mb = 64;
  // Proof-number search (df-pn) for every iteration when jobs == 1 and no chance node is
  // met; false: the depth-limited AND/OR alpha-beta of every iteration (the peer of the
  // benchmark, and the search of --jobs > 1 and of chance nodes).
  bool proof_numbers = true;
  // Called about every 0.25 s from one search thread.
  std::function<void(const Progress&)> progress;
};
constexpr int kMaxDepth = 60;

enum class Outcome {
  Proved,   // the goal is forced in `moves` moves and not in fewer
  None,     // proved: the goal cannot be forced within the depth
  Unknown,  // the budget, the timeout or an unfixed draw ended the search first
  Chance,   // Expected mode: `probability` (neither 0 nor 1 need be proved impossible)
};

struct Result {
  Outcome outcome = Outcome::Unknown;
  int moves = 0;                  // Proved: the prover's move count
  int proved_none_within = 0;     // no win within this many moves is proved (all outcomes)
  std::vector<std::string> line;  // main line in the canonical UCI-like notation
  std::vector<std::string> keys;  // with all_keys: every first move that forces it
  double probability = -1;        // Expected mode: the winning probability within depth
  std::string why;                // Unknown: what stopped the search
  uint64_t nodes = 0;             // actions applied
  double seconds = 0;
};

// Solves from the engine's current position (left unchanged). Throws
// std::invalid_argument for a depth out of range.
Result solve(const Engine& root, const Options& options);

}  // namespace arb::solve
