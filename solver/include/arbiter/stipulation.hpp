// Composers' stipulations (Popeye's orthodox ones) for any engine behind arb::Engine:
//   #N    direct mate: the attacker forces mate within N of its moves
//   =N    direct stalemate
//   h#N   helpmate: both sides cooperate, 2N half-moves, the last one mates (h#N.5: 2N+1)
//   h=N   helpstalemate
//   s#N   selfmate: the attacker forces the defender to mate it within N moves
//   s=N   selfstalemate
//   r#N   reflexmate: a selfmate where either side that can mate on the move must do so
//   r=N   reflexstalemate
//   ser-#N, ser-=N, ser-h#N, ser-h=N, ser-s#N, ser-s=N: series movers (one side plays N
//         moves in a row, none but the last giving check; ser-h: then the other side mates
//         in one; ser-s: then the other side must mate)
// "Mate" is any terminal the ruleset awards to the mating side (checkmate in chess, a king
// capture in No Stress Chess, any of Chess 2's wins); "stalemate" is the side to move left
// without a legal action and not in check (Termination Stalemate or NoLegalMove).
// Insufficient material does not end a line (composers' convention, and Popeye's).
//
// Exactness: help and series solutions are lines of exactly N moves; direct, self and
// reflex solutions are keys that force the aim within N (Popeye's "in at most N"). Either
// way the answer names the solutions of length N and, apart, the shorter ones.
//
// Series play needs the side to move to change without a move: the solver rewrites the
// position text's second field (`w`/`b`, FEN-shaped texts) and clears the en-passant
// field; a position text without that field is refused for series play.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arbiter/engine.hpp"

namespace arb::stip {

enum class Play : uint8_t { Direct, Help, Self, Reflex };
enum class Aim : uint8_t { Mate, Stalemate };

struct Stipulation {
  Play play = Play::Direct;
  Aim aim = Aim::Mate;
  bool series = false;
  int moves = 1;      // N
  bool half = false;  // help play only: N.5 (one more half-move, taken first)
  // Popeye's spelling: "#2", "h#2.5", "ser-h#3", "s=1", "r#2".
  std::string text() const;
};
// Reads Popeye's spelling (case-insensitive, as text() writes it); std::nullopt otherwise.
std::optional<Stipulation> parse_stipulation(std::string_view text);

constexpr int kMaxMoves = 30;

// One line of a batch file (`arbiter solve --epd FILE`): `POSITION;STIPULATION[;notes]`
// (the notes are not read: expected answers, say), or EPD: four FEN fields, then
// operations `bm #N;`, `dm N;`, `stip X;` (others, such as `id` or a best move, are
// ignored). `fixed`, a stipulation given on the command line, overrides the line's.
// Surrounding blanks are ignored.
struct BatchLine {
  std::string position;
  Stipulation stip;
};
// nullopt for a blank line or a comment (`#` first); throws std::invalid_argument saying
// what is wrong with the line otherwise.
std::optional<BatchLine> parse_batch_line(std::string_view line,
                                          const std::optional<Stipulation>& fixed = {});

struct Line;

struct Options {
  Stipulation stip;
  // The side that moves first. Unset: direct, self and reflex play and ser-#, ser-s# take
  // the position's side to move; help play takes Popeye's default (Black starts h#N and
  // ser-h#N, White h#N.5). A start other than the position's side to move rewrites the
  // position text's side field (as series play does).
  std::optional<Color> start;
  bool shorter = true;     // also look for the solutions shorter than N
  bool tree = false;       // keyed play: each key's solution tree (Line::threat, defences)
  int tries = 0;           // keyed play: list the first moves refuted by 1..tries defences
  uint64_t max_nodes = 0;  // actions applied, 0: none
  double timeout = 0;      // seconds, 0: none
  size_t table_mb = 64;    // transposition table of settled (position, moves left) nodes
  // Threads for one problem: the first moves (keyed and help play; series play runs on
  // one) split among that many searches sharing one table of table_mb (1: one search).
  int jobs = 1;
  // The caller knows every win of the game is a checkmate (the ruleset's end conditions):
  // a mating move must give check, so the last move of a mate is looked for among the
  // checks only (Engine::gives_check). Off: every move is played and its status read.
  bool mate_needs_check = false;
  std::function<void(uint64_t nodes, double seconds)> progress;  // about every 0.25 s
  // Help and series play, what becomes of the lines (an h#4 of a queen ending has millions:
  // none of these holds them all). on_line: each line is passed as it is proved, in the
  // order the lines are listed (the lengths from the shortest up, N last; within one, the
  // order of the first moves' generation, depth first), with `full` (N moves, else a shorter
  // one), and Result keeps none. count_only: the lines are counted (Result's counts), not
  // spelled. max_lines > 0: the search stops at the line after the first max_lines
  // (Popeye's MaxSolutions), and Result::more says that there are more.
  std::function<void(const Line& line, bool full)> on_line;
  bool count_only = false;
  uint64_t max_lines = 0;
};

enum class Outcome { Solved, None, Unknown };

// A solution tree (Options::tree, keyed play): a move and what answers it. Under an
// attacker's move: every defence; under a defence: the attacker's moves that reach the aim
// fastest after it (more than one: each is a dual); a selfmate's last defences are the
// forced mates themselves. An empty `next` under an attacker's move: the aim is reached.
struct TreeNode {
  std::string uci, san;
  int moves = 0;      // attacker moves from this one to the end, this one included
  bool dual = false;  // one of several equally fast attacker answers to the same defence
  std::vector<TreeNode> next;
};

struct Line {
  int moves = 0;                 // its length in the stipulation's moves
  std::vector<std::string> uci;  // canonical (arbiter moves --notation uci)
  std::vector<std::string> san;
  // Options::tree, keyed play: what the key threatens (the attacker's fastest moves if the
  // defender could pass; none when the key checks), zugzwang when it threatens nothing,
  // and every defence with its answers.
  std::vector<TreeNode> threat;
  bool zugzwang = false;
  std::vector<TreeNode> defences;
};

// A try (Options::tries, keyed play): a first move that fails to few defences.
struct Try {
  std::string uci, san;
  std::vector<std::string> refutations_uci, refutations_san;
};

// One thread's share of a problem under Options::jobs > 1 (how well the work was split).
struct ThreadWork {
  uint64_t nodes = 0;    // actions it applied
  double busy = 0;       // wall seconds it searched (the rest of the split it had no work)
  double cpu = 0;        // its CPU seconds in the split (load-independent where busy is not)
  int helped = 0;        // first moves it joined while another thread was searching them
  int abandoned = 0;     // first moves it stopped because another thread settled them first
  uint64_t dropped = 0;  // of its nodes, those spent on the first moves it abandoned
};

struct Result {
  Outcome outcome = Outcome::Unknown;
  Color start = Color::White;
  std::vector<Line> solutions;  // of length N (help, series: whole lines; else keys)
  std::vector<Line> shorter;    // of fewer moves (Options::shorter), shortest first
  // Every solution proved, kept or not (Options::on_line, count_only, max_lines): of N, and
  // of fewer moves. more: the search stopped at Options::max_lines, with more to find.
  uint64_t solution_count = 0, shorter_count = 0;
  bool more = false;
  std::vector<Try> tries;  // Options::tries: the first moves that fail, by few defences
  // No solution of fewer than this many moves exists (proved; 1 = nothing is proved).
  int proved_none_below = 1;
  std::string why;  // Unknown: what stopped the search
  uint64_t nodes = 0;
  double seconds = 0;
  double split_seconds = 0;         // Options::jobs > 1: wall seconds of the split searches
  std::vector<ThreadWork> threads;  // Options::jobs > 1: each thread's share of them
};

// The side that moves first in solve(root, options): Options::start, else for help play
// Popeye's default (Black starts h#N and ser-h#N, White h#N.5), else the side to move.
Color starting_side(const Engine& root, const Options& options);

// Solves from `root`'s position (a clone is searched). Throws std::invalid_argument for a
// stipulation out of range or a start side the position text cannot take.
Result solve(const Engine& root, const Options& options);

}  // namespace arb::stip
