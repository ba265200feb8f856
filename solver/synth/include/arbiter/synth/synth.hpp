// Position synthesis with Z3: a second back end of the ruleset compiler. The compiled
// Program's tables (the per-square leap, ride, lame and zone tables of a bounded board, or
// the move vectors of the unbounded grid) become a Boolean encoding of a position and of
// "the side to move has no legal action"; Z3 finds positions, the compiled generator
// verifies every one before it is returned.
//
// The encoding (see README "Synthesis"):
//   - one Boolean per (square, colour, piece type) of the window, at most one per square;
//   - attacks from the capture targets of the same tables the generator runs;
//   - "no legal action" is the conjunction, over every piece type, origin and target (and
//     every placement of a reserve piece), of "not there, blocked, own piece on the
//     target, (grid) no neighbour for a quiet move, or the royal attacked afterwards".
//     The conjuncts are added lazily: Z3 proposes a position, the generator lists its
//     legal actions, and the conjunct of each legal action is added (a conjunct the model
//     violates, so the loop ends; unsat of the conjuncts added so far proves unsat of the
//     whole). The royal's conjuncts are added up front; `eager` adds all of them.
//   - mate-in-1: a second board (the position after the mating action, on every square:
//     the action may leave the window) tied to the first by a one-hot selector over every
//     action of the mover (moves, placements from its hand, Chess 2's strikes, whirlwinds
//     and rampages with the board after them); with a king-turn (Chess 2's Two Kings, a
//     ruleset's royal-move phase) a board after the normal action, then an optional
//     selector over the royal pieces' actions. The defender's conjuncts are added lazily
//     on the last board.
// Excluded, and so absent from every synthesised position: castling rights and en-passant
// squares (the texts carry `-`), ChessMe hands/piles/capture piles other than the hands
// requested, and (mate-in-1) ChessMe mating placements and exchange promotions.
// Chess 2: the armies' primitives come from the Program as the generator reads them
// (capture rules, teleports, region and borrowed moves, strikes, whirlwinds, rampages,
// several royal pieces, midline invasion, king-turns); unsat is a proof for every army
// (Outcome::incomplete is set only when a model's action was not confirmed).
// No Stress Chess: the mover holds its drawn hand (H + 1 cards, given or chosen) and moves
// only the kinds it names, an Again card naming the newest piece card of each discard pile
// (RULINGS 3.5); the discard piles are given, or Z3 chooses each pile's top piece card when
// the mover may hold an Again card (only that card matters to the mover's actions); the
// other hand and the pile are unknown; levels 1-3 state only mate-in-1 (a capture of the
// king).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "arbiter/engine.hpp"
#include "arbiter/lang/compile.hpp"

namespace arb::synth {

enum class Goal {
  Checkmated,   // the side to move is in check and has no legal action
  Stalemated,   // not in check, no legal action (chess stalemate, ChessMe's draw, Chess 2's loss)
  InCheck,      // the side to move is in check
  MateIn1,      // the side to move has an action after which the opponent is checkmated
  NoLegalMove,  // no legal action, in check or not
};
// "checkmated", "stalemated" (also "no-move-draw", "chessme-draw"), "in-check",
// "mate-in-1", "no-legal-move"; throws std::invalid_argument otherwise.
Goal parse_goal(const std::string& text);
std::string to_string(Goal g);

// The most squares a window may have (24 x 24): the encoding grows with them.
constexpr int kMaxWindowSquares = 576;

struct Request {
  Goal goal = Goal::Checkmated;
  Color side = Color::White;  // the side to move
  // Exact material on the board, "KQ v K" (White v Black); empty: at most each side's set
  // (start position plus reserve or pile, promotions accounted for).
  std::string material;
  // Pieces stand only in this window: bounded boards, the lower-left WxH squares (0: the
  // whole board; moves still use the whole board); the grid, the WxH squares from
  // (origin_x, origin_y) (0: 6 x 6 from a1). At most kMaxWindowSquares squares.
  int window_w = 0, window_h = 0;
  int origin_x = 0, origin_y = 1;
  // Squares fixed: a piece letter (upper case White) or '.' for empty.
  std::vector<std::pair<Coord, char>> squares;
  // Reserves (bounded) or hands (grid), exactly: upper-case White letters, lower-case
  // Black, e.g. "QN" + "r". Default empty.
  std::string hands;
  // No Stress Chess's discard piles, [White] and [Black], bottom to top as the position
  // text's `wdiscard:`/`bdiscard:` (card letters PNBRQKA; "" an empty pile). Unset: Z3
  // chooses the pile's top piece card (or an empty pile) when the mover may hold an Again
  // card, and the pile is empty otherwise.
  std::optional<std::string> discard[2];
  int pieces = -1;        // exactly this many pieces on the board (-1: any)
  bool smallest = false;  // the fewest pieces for which the goal is satisfiable
  int count = 1;          // distinct positions wanted
  bool eager = false;     // every no-legal-action conjunct up front instead of lazily
  // 0: none. Counted from the start of synthesize(): building the encoding, every Z3 check
  // (given the time left) and each refinement; the run stops within a second of it.
  double timeout_seconds = 0;
  // After every Z3 model checked: the positions found so far and the models rejected
  // (the command's progress line).
  std::function<void(size_t found, size_t rejected)> progress;
};

struct Found {
  std::string position;  // the variant's position text, verified by the generator
  std::string move;      // mate-in-1: the mating action (UCI-like), else empty
  std::string reason;    // the generator's status reason of the goal position
  int pieces = 0;
};

struct Outcome {
  std::vector<Found> found;
  // Z3 answered unsat: no further position exists (none at all when `found` is empty);
  // within the window for the grid and for a bounded board's window.
  bool exhausted = false;
  bool timed_out = false;  // the deadline or Z3's resource limit came first
  int conjuncts = 0;       // no-legal-action conjuncts instantiated (lazily or eagerly)
  int refinements = 0;     // lazy conjuncts added after the generator found a legal action
  int rejected = 0;        // models the generator rejected outright, blocked (0 expected)
  int solver_calls = 0;
  int fresh_checks = 0;  // unsat answers of the incremental solver checked again on a fresh one
  double seconds = 0;
  // Non-empty when an unsat answer is no proof for this request (mate-in-1: a model whose
  // mating action the generator did not confirm was blocked as a whole board); then
  // `exhausted` means only "no further position found".
  std::string incomplete;
  // What a proof of impossibility quantified over beyond the board (No Stress Chess: the
  // zones Z3 chose, e.g. "every 4-card hand of White, every discard pile of each side");
  // empty when nothing was.
  std::string scope;
};

// `--discard`'s text into `request.discard`: WHITE/BLACK, each side `-` (an empty pile),
// `?` (chosen by Z3, the default) or its cards bottom to top (PNBRQKA, either case), e.g.
// `RA/-`. Throws std::invalid_argument with a message naming the fault.
void parse_discard(const std::string& text, Request& request);

// Throws std::invalid_argument for a request the encoding cannot express (bad material,
// a square off the window, a grid without the adjacency rule).
Outcome synthesize(std::shared_ptr<const lang::Program> program, const Request& request);

// The encoding evaluated on positions of a bounded board against the compiled
// generator: whether the side to move is in check, and which of its moves, strikes,
// whirlwinds and rampages are legal (castling and placements aside). One line per
// difference, after its position; empty when they agree. The tests run it over random positions of every
// army.
std::vector<std::string> compare_encoding(std::shared_ptr<const lang::Program> program,
                                          const std::vector<std::string>& positions);

// Whether `position` satisfies `goal` on the compiled generator (the check applied to
// every model); for mate-in-1 `move` names the mating action (empty: any). Throws
// PositionError for unreadable text.
bool verify(const std::shared_ptr<const lang::Program>& program, const std::string& position, Goal goal,
            const std::string& move = "");

}  // namespace arb::synth
