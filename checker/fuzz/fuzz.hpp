// The differential checker: plays random games on two engines at once and compares, at
// every node, the set of legal actions (canonical text), the status with its reason, and
// the position text after each action. Now and then it mutates the position reached (a
// piece moved, added or removed, a reserve, hand or pile changed: see mutate.hpp) and,
// when both engines accept the new text, plays on from there. Nothing here is specific to
// a variant: it sees engines only through arb::Engine and dispatches on the text format.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arbiter/engine.hpp"
#include "arbiter/json.hpp"
#include "fuzz/mutate.hpp"

namespace arb::fuzz {

using EngineFactory = std::function<std::unique_ptr<Engine>()>;

struct Divergence {
  std::string position;     // where to start (shrunk)
  std::string action;       // actions played from `position` before the engines disagree:
                            // canonical texts separated by spaces, "" for the node itself
  std::string what;         // "actions", "status", "position", "accepts"
  std::string left, right;  // each engine's answer
  std::string diff;         // for "actions": `+X` only the left engine has X, `-Y` only the right
  int plies = 0;            // plies from the game start to the divergence (a mutation counts one)
  std::string shape;        // for "actions": the differing actions without their squares (`-Px1:1`)
};

// Counters shared by parallel jobs, for one progress line.
struct Progress {
  std::atomic<uint64_t> games{0}, positions{0}, mutations{0}, acceptance{0};
  uint64_t total_games = 0;  // of all jobs (0: the run is timed)
};

struct Options {
  uint64_t seed = 1;
  uint64_t games = 100;
  double seconds = 0;  // > 0: run until this much time has passed instead of `games`
  int max_plies = 120;
  bool progress = false;  // a progress line on stderr
  // Chance (percent) per ply of mutating the position reached; 0 plays plain games.
  int mutate_percent = 6;
  // Chance (percent) per game of a stretch of back-and-forth moves (a move, the reply, both
  // taken back, again), so that positions repeat and repetition claims arise.
  int shuffle_percent = 30;
  // Targeted mutations (mutate.hpp: targeted_position) among the mutations, the
  // back-and-forth stretches, and a mated node one ply away compared off the game's path;
  // false plays the unbiased games of earlier versions.
  bool bias = true;
  // Count what the games exercise (Report::coverage): costs a describe() per legal action.
  bool coverage = false;
  // An acceptance difference (exactly one engine accepts a mutated text) is a divergence.
  bool strict_acceptance = false;
  // Stop after this many distinct divergences (each ends its game; the next game goes on).
  size_t max_divergences = 1;
  size_t max_examples = 5;            // acceptance differences kept as examples
  std::atomic<bool>* stop = nullptr;  // set by another job: return early
  Progress* shared = nullptr;         // counters for the progress line
};

struct AcceptanceDifference {
  std::string position;
  std::string accepted_by;  // "left" or "right"
  std::string error;        // the other engine's message
};

// What the games exercised: for each event, the games in which it happened at least once
// and how many times. Events: `end: REASON` (a node with that status), `check`, `claim:
// threefold`, `claim: fifty-move`, `offered: castling|en passant|promotion|placement` (a
// legal action of that kind at a compared node), `played: ...` (the same, and captures,
// for the actions played), the features of the nodes' texts (mutate.hpp:
// position_features: `material: bare kings`, `hand: full`, `field: en passant`, ...),
// `mutation: KIND` (mutated texts both engines accepted), `shuffle` (back-and-forth
// stretches).
struct Coverage {
  std::map<std::string, uint64_t> games, events;
};

struct Report {
  uint64_t games = 0;
  uint64_t positions = 0;               // nodes compared
  uint64_t mutations = 0;               // mutated texts both engines accepted (and played on from)
  uint64_t mutations_rejected = 0;      // mutated texts both rejected
  uint64_t acceptance_differences = 0;  // mutated texts exactly one engine accepted
  std::vector<AcceptanceDifference> acceptance_examples;  // the first few
  double seconds = 0;
  std::optional<Divergence> divergence;  // the first divergence found
  std::vector<Divergence> divergences;   // distinct divergences, in the order found
  Coverage coverage;                     // with Options::coverage
};

// The coverage as a table, one event a line with games and events per 1,000 games.
std::string coverage_text(const Report& r);
arb::Json coverage_json(const Report& r);

// Runs the differential fuzzer. Starts every game from `start` (position text). Throws
// std::runtime_error when neither engine accepts `start`.
Report run(const EngineFactory& left, const EngineFactory& right, const std::string& start, const Options& o);

// Runs `jobs` copies of run() on threads: job j with seed + j and its share of the games,
// so that a run is deterministic for a seed and a job count (with `games`; with `seconds`
// the jobs stop together once one has found its divergences). Reports are merged in job
// order. The progress line, when asked for, counts all jobs.
Report run_parallel(const EngineFactory& left, const EngineFactory& right, const std::string& start,
                    const Options& o, int jobs);

// Adds `from` to `into` (counters summed, seconds the larger, divergences appended up to
// `max_divergences`, examples up to `max_examples`).
void merge(Report& into, const Report& from, size_t max_divergences, size_t max_examples);

// Compares one node (no actions applied). Returns a divergence or nullopt. The position texts
// are compared with their hands in one order (hand_sorted_text()); at a node both call
// ended, as ended_position_text() writes them.
std::optional<Divergence> compare_node(Engine& a, Engine& b);

// The position text `text` of an ended game as compare_node() compares it: an en-passant
// field of one square (field 4 of a FEN) is kept only when `ep_landings`, the squares where
// the side to move's own legal en-passant captures land, holds it; else it is `-`. A game
// that has ended has no move to take en passant with, so the field says nothing there, and
// engines write it differently: the compiled engine keeps the square a double step marked
// (kept when a capture would be legal by the move rules alone), Fairy-Stockfish's adapter
// keeps it only with a capture among the engine's moves (none in an ended game). Other
// texts (a path field `f5g6`, written with or without a capture; ChessMe's) are unchanged.
std::string ended_position_text(const std::string& text, const std::vector<Coord>& ep_landings);

// The position text `text` with its hands (the bracket that ends the first field:
// `...[QCp]`) in one order, as compare_node() compares every node: a hand is a multiset and
// its order the writer's. Fairy-Stockfish writes a hand in its own piece-type order (a
// chancellor before a queen: `[CQ]`), the compiled engine in the ruleset's (`[QC]`). Each
// entry (a count, a `+`, the letter, a `~`) is kept whole. Texts without a hand are unchanged.
std::string hand_sorted_text(const std::string& text);

// Loads `position` on both engines, plays `actions` (canonical texts separated by spaces)
// and compares the node reached. A text exactly one engine accepts is an "accepts"
// divergence; nullopt when they agree, when both reject the text, or when an action is
// not legal on both.
std::optional<Divergence> reproduce(Engine& a, Engine& b, const std::string& position,
                                    const std::string& actions);

std::string status_text(const Status& s);

// Shrinks a divergence while it reproduces with the same `what`: removes pieces one at a
// time (board, reserve, hand, pile and capture-pile tiles) and, for ChessMe text, moves
// the pieces nearer the origin (the actions translated with them).
Divergence shrink(const EngineFactory& left, const EngineFactory& right, Divergence d);

// A key telling divergences apart in a list of distinct ones: for actions, their shapes.
std::string divergence_key(const Divergence& d);

arb::Json to_json(const Divergence& d);
arb::Json to_json(const AcceptanceDifference& a);

}  // namespace arb::fuzz
