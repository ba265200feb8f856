// Proved puzzles: positions whose goal (mate, win or draw in exactly K moves) has one key
// only, found by self-play and proved by the solver (`arbiter puzzles`).
//
// File format (corpus/puzzles/VARIANT.csv), RFC 4180 CSV, one header line
//   position,goal,depth,solution,variant,options
// position: the position text with the solving side to move (FEN for chess); goal: mate,
// win or draw (as `arbiter solve --goal`); depth: K, the solver's move count; solution: the
// main line starting with the key, actions in the canonical notation of `arbiter moves
// --notation uci`, separated by spaces (the defender's longest resistance, so 2K-1
// actions); variant: the ruleset's name; options: every option of the game as
// `name=value`, separated by spaces (empty when the ruleset has none). Fields holding a
// comma, a quote or a line break are quoted.
//
// Stipulation puzzles (Options::stipulation): goal is the stipulation in Popeye's spelling
// (`#2`, `h#2`, `s#3`, `ser-h#4`, ...), depth its N, solution the unique solution's line
// (keyed play: the key and the main line of the tree), and a seventh column `tree` holds
// the full solution tree as JSON (tree_json): the header is then
//   position,goal,depth,solution,variant,options,tree
// A file without stipulation puzzles keeps the six columns.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "arbiter/engine.hpp"
#include "arbiter/solver.hpp"
#include "arbiter/stipulation.hpp"

namespace arb::puzzles {

struct Puzzle {
  std::string position;
  std::string goal;  // mate | win | draw
  int depth = 0;
  std::vector<std::string> solution;
  std::string variant;
  std::string options;
  std::string tree;  // stipulation puzzles: tree_json of the solver's answer
};

// Whether `goal` names a stipulation (`#2`, `h#2.5`, ...) rather than mate, win or draw.
bool is_stipulation(const std::string& goal);

// The full solution tree of a stipulation's answer, as one JSON array of its solutions of
// length N: each {"uci":[line],"threat":[nodes],"zugzwang":bool,"defences":[nodes]} (the
// last three for keyed play), a node {"uci":"e2e4","moves":M,"dual":true (only when
// set),"next":[nodes]}. Canonical actions only, so equal trees give equal texts.
std::string tree_json(const stip::Result& r);

// A sound problem: solved with exactly one solution of length N, none shorter (proved).
bool sound(const stip::Result& r);

// The solver's answer for the stipulation at the engine's position (solution trees on for
// keyed play, shorter solutions searched); max_nodes 0: no budget.
stip::Result solve_stipulation(const Engine& engine, const stip::Stipulation& s, uint64_t max_nodes,
                               bool mate_needs_check = false);

// Whether the first action of `line` (canonical text) at the engine's position neither
// captures nor gives check. The engine's position is unchanged.
bool quiet_first_move(Engine& engine, const std::string& action);

// The position text without the piece on the board's character `index` of its first field
// (FEN-shaped texts: ranks separated by `/`, digits for empty squares); "" when the text is
// not FEN-shaped. pieces_of lists the indexes of the pieces and their squares (`a1`...).
struct BoardPiece {
  size_t index = 0;
  char piece = 0;
  std::string square;
};
std::vector<BoardPiece> pieces_of(const std::string& position);
std::string without_piece(const std::string& position, size_t index);

// Economy: what removing each piece in turn does to a stipulation puzzle (its position, its
// stipulation, its stored tree). change: "illegal" (the engine refuses the position),
// "no solution", "cooked" (more than one solution, or a shorter one), "solution changed"
// (one solution still, another tree), "unchanged" (the same tree: an idle piece) or
// "unknown" (the budget ran out).
struct Removal {
  BoardPiece piece;
  std::string change;
};
std::vector<Removal> economy(const Engine& engine, const Puzzle& p, uint64_t max_nodes = 2'000'000,
                             bool mate_needs_check = false);

// "mate" -> Goal::Mate, ...; throws std::invalid_argument for another word.
solve::Goal goal_of(const std::string& goal);
// The options column of a game: `name=value` pairs separated by spaces.
std::string options_text(const GameConfig& config);

std::string to_csv(const std::vector<Puzzle>& puzzles);
// Throws std::invalid_argument("line L: ...") for a malformed file.
std::vector<Puzzle> from_csv(const std::string& text);

// Re-solves a puzzle on `engine` (an engine of the puzzle's game; its position is set to
// the puzzle's and left there): the solver must prove the goal in exactly `depth` moves
// (none in fewer) with one key only, the key being the solution's first action, and the
// solution must replay legally to a position that meets the goal after `depth` moves of
// the solving side. A stipulation puzzle is re-solved by the stipulation solver instead: it
// must be sound (one solution of length N, none shorter), with the stored line and the
// stored tree exactly. Returns "" when all holds, else what failed.
std::string verify(Engine& engine, const Puzzle& p, size_t table_mb = 16);

struct Stats {
  uint64_t games = 0;      // self-play games played
  uint64_t positions = 0;  // positions given to the solver
  uint64_t unknown = 0;    // of them, left unknown by the per-position budget
  uint64_t built = 0;      // frame positions built (generate_frame), filtered ones included
  double seconds = 0;
};

struct Options {
  std::string goal = "mate";
  int depth = 1;
  int count = 10;
  uint64_t seed = 1;
  uint64_t max_nodes = 100000;  // solver budget per position (actions applied)
  uint64_t max_games = 5000;    // self-play games before giving up
  double timeout = 0;           // seconds for the whole search (0: none)
  int max_plies = 160;          // plies per self-play game
  bool shuffle_starts = true;   // a new `start:N` per game where the engine takes it
  // A stipulation (`#2`, `h#2`, ... as stip::parse_stipulation reads) instead of goal/depth:
  // kept when sound() (one solution of length N, none shorter), stored with its tree.
  std::string stipulation;
  bool quiet_key = false;  // the key (first move) neither captures nor checks
  // Every piece needed: a candidate's idle pieces (removal leaves the same tree) are taken
  // off one at a time, then economy() must report a change for every piece left.
  bool economy = false;
  bool mate_needs_check = false;  // as stip::Options (every win of the game is a checkmate)
  // generate_frame only: the frame (position text; empty: kSelfmateFrame), the positions
  // built before giving up, and the threads proving candidates (the result is the same for
  // any number: candidates are numbered, each from its own seed, and kept in that order).
  std::string frame;
  // The pieces added to the frame, `WHITE/BLACK` letters (e.g. `QRBNP/pnb`); empty: chosen
  // by default_frame_pieces() from the game's start position.
  std::string frame_pieces;
  uint64_t max_frames = 200000;
  int jobs = 1;
  // Called after every game and every puzzle found.
  std::function<void(const Stats&, size_t found)> progress;
  // Called with each puzzle as it is found.
  std::function<void(const Puzzle&)> found;
};

// Self-play from `start` (its position; for an engine that takes `start:N` positions,
// ChessMe, a fresh shuffle per game): random games that prefer captures, each position
// after the eighth ply offered to the solver (goal, depth, --all-keys, the node budget).
// A position is kept when the goal is proved in exactly `depth` moves with a unique key
// (for the draw goal: and no win within `depth` is proved), it differs from every position
// kept, and verify() accepts it; one puzzle per game. Returns up to `count` puzzles, in the order found.
std::vector<Puzzle> generate(const Engine& start, const Options& options, Stats& stats);

// The same test on given positions (from synthesis, say): each position (set on a clone of
// `engine`) is kept when it is a puzzle of options' goal and depth with a unique key, in
// the order given, up to options.count. stats.positions counts the positions solved.
std::vector<Puzzle> select(const Engine& engine, const std::vector<std::string>& positions,
                           const Options& options, Stats& stats);

// Selfmate frames (puzzles_frame.cpp). Popeye's frame: Black's king a3 walled in by its
// own pawns b3 and a2 in front of White's king a1, so that ...b2# is Black's mate and
// White's task is to take every other Black move away.
inline constexpr const char* kSelfmateFrame = "8/8/8/8/8/kp6/p7/K7 w - - 0 1";

// One candidate around `frame` (a FEN-shaped position text): 2-4 White pieces drawn from
// the letters before the `/` of `pieces` and 0-1 Black ones from those after it (default
// Q R B N P and p n b), each on an empty square at random (pawns, `P`/`p`, off the first
// and last ranks), White to move. "" when the frame is not FEN-shaped.
std::string frame_position(const std::string& frame, uint64_t seed, const std::string& pieces = "QRBNP/pnb");

// The pieces a frame gets when none are given: chess's `QRBNP/pnb` when the game's start
// position (`start`, a FEN-shaped text) holds all of them; otherwise every piece letter of
// the start position on its side, less the frame's royals (a letter the frame holds once
// on a side and the start position once too). "" when neither text is FEN-shaped or no
// letter is left for White.
std::string default_frame_pieces(const std::string& start, const std::string& frame);

// Stipulation puzzles (options.stipulation, a selfmate above all) from positions built
// around options.frame: candidate k is frame_position(frame, mix(seed, k)); one the
// engine takes, whose defender has few legal moves when to move (the cheap filter), is
// proved as generate() proves self-play positions (sound, the qualities asked, verify()).
// Up to `count` puzzles in candidate order; stops at max_frames candidates or the timeout.
// Throws std::invalid_argument when the engine takes none of the first thousand.
std::vector<Puzzle> generate_frame(const Engine& engine, const Options& options, Stats& stats);

}  // namespace arb::puzzles
