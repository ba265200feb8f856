// Proof games: the shortest sequence of legal turns from a position to a position that
// meets a goal (a mate, a stalemate, any draw, any win, no legal move, or a terminal with a
// given status reason: `Goal`), proved shortest. Both sides cooperate (a helpgame): it is a
// single-agent search over every turn of either side, and no line continues past a
// position where the game has ended. The search knows no variant: it drives any
// arb::Engine (legal_actions/apply/undo/status/hash/gives_check).
//
// Two phases:
//   1. An upper bound (optional, `beam_width` > 0): a beam search, ply by ply, keeping the
//      positions where the side that is to be stuck (mated, stalemated) has the fewest
//      distinct moves (run once for each side as the stuck one, only the loser's when a
//      winner is asked). It finds a game fast but proves nothing.
//   2. The proof: iterative deepening over the ply count d = 1, 2, ... of an exhaustive
//      depth-first search for the goal in exactly d plies, with a transposition table
//      holding, per position (the engine's hash: pieces, side, hands, piles, capture
//      piles), an r for which "no goal exactly r plies from here" is proved. Depth d is
//      searched only after every depth below it was refuted, so the first game found is
//      a shortest one; when the beam's game has U plies and every d < U is refuted, that
//      game is a shortest one. Where the rules allow it (witness_filters_apply: ChessMe's
//      do), two filters skip, without applying them, the turns one and two plies before
//      a leaf that provably leave the stuck side a legal move (proofgame.cpp states the
//      argument; `last_turn_filter`; only for goals met by no-move positions out of check:
//      goal_filters_apply). For a mate (status reason "checkmate", which the engines report
//      only with the side to move in check), the last turn must give check: turns for
//      which the engine's gives_check() is false are skipped one ply before the leaf.
// Conditions of the proof: the position fixes every draw (a ChessMe pile of known order,
// as the seeded start has: RULINGS 2.3; No Stress Chess with a known deck; a pile marked
// `?` or a chance node met in the search is refused), the game is the
// rules' (no draw by agreement), and "shortest" counts complete turns (RULINGS 2.4: a
// move and its optional placement are one ply).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "arbiter/engine.hpp"

namespace arb::lang {
struct Program;  // arbiter/lang/program.hpp
}  // namespace arb::lang

namespace arb::proofgame {

// What the game must end in (`arbiter proofgame --goal`), judged through the engine
// interface alone (status(), legal_actions()):
//   Mate        status reason "checkmate";
//   Stalemate   no legal action, not in check, and the rules end the game there (chess
//               "stalemate", ChessMe "chessme-draw", Chess 2's no-move loss);
//   Draw        any terminal the rules score a draw;
//   Win         any decided terminal;
//   NoLegalMove the side to move has no legal action, whatever the rules' verdict;
//   Reason      a terminal whose status reason is `reason` ("royal-capture", ...).
// `winner`, when set, is the side that must win (Mate, Win, Reason; a drawn terminal never
// matches it). Without it either side may win: all moves are cooperative (a helpgame).
struct Goal {
  enum class Kind : uint8_t { Mate, Stalemate, Draw, Win, NoLegalMove, Reason };
  Kind kind = Kind::Draw;
  std::string reason;           // Kind::Reason
  std::optional<Color> winner;  // the side that must win; none: either
  std::string text() const;     // as --goal takes it ("mate", "reason:royal-capture")
  // Every position that meets the goal has the side to move out of check and without a
  // legal action, whatever the rules (Stalemate). The rules can answer for Draw too
  // (goal_filters_apply).
  bool stuck_unchecked() const { return kind == Kind::Stalemate; }
};

// Reads --goal and --side ("" for none; `w` or `b`). Throws std::invalid_argument.
Goal parse_goal(const std::string& goal, const std::string& side = "");

// Does the engine's current position meet the goal? (A chance node never does.)
bool reached(Engine& e, const Goal& goal);

struct Progress {
  const char* phase = "";  // "beam" or "proof"
  int depth = 0;           // plies being searched
  uint64_t nodes = 0;      // actions applied so far (both phases)
  double seconds = 0;
};

struct Options {
  Goal goal;               // default: any drawn terminal
  int max_plies = 8;       // the proof searches depths 1..max_plies (and below the beam's game)
  int beam_width = 300;    // 0: no beam phase
  int beam_plies = 24;     // the beam stops after this many plies
  uint64_t max_nodes = 0;  // proof phase budget in actions applied, 0: none
  double timeout = 0;      // seconds for both phases, 0: none
  size_t table_mb = 64;    // transposition table, at most (it starts at 256 KiB and grows)
  // One turn before a leaf, skip the turns that provably leave the other side a legal move
  // (see proofgame.cpp) instead of applying them. Sound only for rules that meet the
  // filters' conditions: set it from witness_filters_apply() (the command does).
  bool last_turn_filter = false;
  // A position with legal actions may end the game (an invasion, a royal capture,
  // insufficient material): the search asks status() at every inner node so that no line
  // goes on past the end. False skips that question; sound only for rules whose every end
  // leaves no legal action: set it from ends_only_without_moves() (the command does).
  bool ends_with_moves = true;
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
  size_t table_bytes = 0;             // the transposition table's size at the end (<= table_mb MiB)
  uint64_t check_pruned = 0;          // Mate: last turns skipped because they give no check
  bool filter = false;                // the last-turn filter ran
  uint64_t filtered = 0;              // turns it skipped (each proved no draw without being applied)
  std::vector<uint64_t> depth_nodes;  // proof: actions applied at iteration d (index d-1)
  double seconds = 0;
};

// Is the side to move not in check and without any legal action?
bool no_move_draw(Engine& e);

// Searches from the engine's current position (left unchanged). Throws
// std::invalid_argument for options out of range, a position that hides a draw (a pile or
// hand of unknown order) or a chance node met in the search: a proof game is proved only
// with every draw fixed (the choice: refuse rather than explore chance outcomes). With the
// last-turn filter on, the goal must be one whose positions are all no-move positions out
// of check (goal_filters_apply decides; the search refuses Mate, Win, NoLegalMove, Reason).
Result search(const Engine& root, const Options& options);

// Whether the compiled rules meet the conditions under which the last-turn filters are
// sound (proofgame.cpp states the argument): the unbounded-grid back end (a capture takes
// only the piece on the target; no en passant, no castling), no action may leave a royal
// piece attacked, leaps reach at most two squares and riders run along lines. When not,
// `why` says which condition fails.
bool witness_filters_apply(const lang::Program& program, std::string* why = nullptr);

// Whether the last-turn filters are sound for this goal under these rules: the rules meet
// witness_filters_apply, and every position meeting the goal has the side to move out of
// check and without a legal action (Stalemate; Draw when the rules' only drawn terminal is
// the no-move one, no draw by insufficient material).
bool goal_filters_apply(const Goal& goal, const lang::Program& program, std::string* why = nullptr);

// Whether every end of these rules leaves the side to move without a legal action (no
// invasion, royal capture or insufficient-material draw; agreement is no position).
bool ends_only_without_moves(const lang::Program& program);

// Replays `line` (UCI-like or SAN texts) from `start` on `engine`, checking each turn is
// legal there and no position before the last ends the game, and that the last position
// meets the goal. Returns "" when all holds, else what failed (the ply and the text).
std::string replay(Engine& engine, const std::string& start, const std::vector<std::string>& line,
                   const Goal& goal = Goal{});

}  // namespace arb::proofgame
