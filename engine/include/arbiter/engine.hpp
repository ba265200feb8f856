// The one interface every engine implements: the compiled generator (lang/) and each
// hand-written reference engine (checker/reference/). The checker, the solver and the
// record validator drive engines only through this header and the text formats beside it.
//
// Only this interface and the text formats are shared between engines; the move logic of
// every engine is its own.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace arb {

// A square. x is the file index (a = 0), y is the rank number (rank 1 = 1), as in
// RULINGS.md section 2.1: `c1` = (2,1); `(-3,0)` is three files left of `a`, one rank below
// rank 1. Bounded boards use 0 <= x < width, 1 <= y <= height.
struct Coord {
  int32_t x = 0;
  int32_t y = 0;
  friend bool operator==(Coord a, Coord b) { return a.x == b.x && a.y == b.y; }
  friend bool operator!=(Coord a, Coord b) { return !(a == b); }
  friend bool operator<(Coord a, Coord b) { return a.y != b.y ? a.y < b.y : a.x < b.x; }
};

enum class Color : uint8_t { White = 0, Black = 1 };
inline Color opposite(Color c) {
  return c == Color::White ? Color::Black : Color::White;
}

// An action as an engine encodes it. Opaque outside the engine that produced it: only
// that engine may apply, describe or undo it. Engines compare through describe() and the
// notation built on it.
struct Action {
  uint64_t lo = 0;
  uint64_t hi = 0;
  friend bool operator==(const Action& a, const Action& b) { return a.lo == b.lo && a.hi == b.hi; }
};

// What an action does, in engine-neutral terms; notation (UCI-like canonical text, SAN,
// the variants' own forms) is built from this. An action is one complete turn as the
// rulings count it (RULINGS 2.4, 3.9, 4.9): its steps are the turn's phases in order, each
// step naming its phase (ChessMe: the move, then the optional placement; Chess 2: the
// normal action, then the optional king-turn; No Stress Chess: the card played with its
// move, a pass or a redraw). The kinds are generic: no kind belongs to one game.
enum class StepKind : uint8_t {
  Move,    // a piece moves from `from` to `to`; `removed` lists what it takes off
  Place,   // a piece from a reserve or hand is put on `to`
  Remove,  // in-place removal: the piece on `from` stays and takes off the pieces in
           // `removed`, aimed at the square `to` (a strike: Chess 2's tiger) or all around
           // itself with `to` == `from` (a whirlwind: Chess 2's warrior king)
  Pass,    // the board does not change: `label` says what the phase did instead ("" for a
           // lost turn, written `pass`; "redraw": the hand exchanged for a new one)
  Chance,  // a chance outcome: `drawn` names what was drawn (see Engine::chance)
  Wall,    // a wall square placed on `to` as the turn's second part, aimed from `from` (the
           // mover's destination): Fairy-Stockfish's `e2e4,e4e5` (issue 24: duck, amazons)
};
enum class Castle : uint8_t { None = 0, KingSide, QueenSide };

// A piece on a square; `piece` is its letter, upper case for White, lower case for Black.
struct PieceAt {
  Coord at{};
  char piece = 0;
  friend bool operator==(const PieceAt& a, const PieceAt& b) { return a.at == b.at && a.piece == b.piece; }
};

struct Step {
  StepKind kind = StepKind::Move;
  char piece = 0;  // upper-case letter of the moving, placed or acting piece type
  Coord from{};
  Coord to{};          // for castling: the castling rook's square (king-takes-rook form)
  char promotion = 0;  // upper-case letter of the promoted-to / exchanged-for piece
  // Every piece this step removes from the board, in the order the rules remove them:
  // the captured piece (the en-passant victim on its own square), each piece on an
  // elephant's rampage path, a whirlwind's victims, a tiger's target, an explosion's
  // victims after the captured piece (the capturer last, on `to`, when it explodes too).
  // The mover leaving `from` is not listed; a self-capture lists an own piece.
  std::vector<PieceAt> removed;
  Castle castle = Castle::None;
  Coord king_to{};  // for castling: the king's destination
  char card = 0;    // the card played for this step, its letter (No Stress Chess: P N B R Q K, A for Again)
  // The turn phase this step fills, counted from 0 in the order the rules give a turn's
  // phases: ChessMe 0 the move, 1 the placement; Chess 2 0 the normal action, 1 the
  // king-turn; No Stress Chess 0 the draw, 1 the card played (a move or a lost turn), 2 the
  // redraw. A one-phase turn is phase 0.
  uint8_t phase = 0;
  std::string label;  // StepKind::Pass: what the phase did (see StepKind)
  std::string drawn;  // StepKind::Chance: what the chance event drew (card letters, tiles)

  bool capture() const { return !removed.empty(); }
};

struct ActionInfo {
  std::vector<Step> steps;
};

// The first step of an action without what describe() allocates (the removed pieces, the
// later steps), and how many steps the action has: enough for a caller that matches text
// against every legal action to pick the few worth describing (the record validator).
struct StepBrief {
  StepKind kind = StepKind::Move;
  char piece = 0;
  Coord from{};
  Coord to{};
  char promotion = 0;
  Castle castle = Castle::None;
  Coord king_to{};
  char card = 0;
  uint8_t phase = 0;
  bool capture = false;
  uint8_t steps = 0;  // describe(a).steps.size(), saturating at 255
  // A brief names no Pass label and no Chance outcome: describe() tells them apart.
};

enum class Result : uint8_t { Ongoing, WhiteWins, BlackWins, Draw };

// How a game ended: the end condition a ruleset's `end` block names (lang/README.md, "End
// conditions"), the same for every game and engine. The detail is the ruleset's label.
enum class Termination : uint8_t {
  None,                  // the game goes on
  Checkmate,             // no legal action, the royal piece attacked
  Stalemate,             // no legal action, not in check (a ruleset where that is a draw)
  NoLegalMove,           // no legal action, where check does not matter (or not in check)
  RoyalCapture,          // a royal piece was captured (No Stress Chess)
  RegionReached,         // a royal piece reached its goal region (Chess 2's midline invasion)
  InsufficientMaterial,  // neither side can win any more
  Extinction,    // a side lost every piece of some types (`extinction`; antichess, shatranj's bare king)
  ChecksGiven,   // a side gave the ruleset's number of checks (`checks N -> win`; 3check)
  DoublePass,    // two passes in a row (`double-pass -> ...`; janggi)
  RoyalsFacing,  // a pass while the royal pieces face each other (`royals-facing -> ...`; bikjang)
  BoardFull,     // every square is occupied; the pieces are counted (`board-full`; ataxx, Reversi)
  Passes,        // the sides passed in a row; the pieces are counted (`passes N`; ataxx, Reversi)
};
const char* to_string(Termination t);  // "none", "checkmate", ... as the `end` block spells them

// Status of the position for the side to move: how the game ended (`end`), who won
// (`result`) and the detail (`reason`: the label the ruleset gives the end, its condition's
// own name unless it states one, e.g. "checkmate", "midline-invasion", "chessme-draw").
// A game that goes on has end None, result Ongoing and an empty reason. Code decides by
// `end` and `result`; `reason` is for people and records.
struct Status {
  Result result = Result::Ongoing;
  Termination end = Termination::None;
  std::string reason;
  bool in_check = false;
  bool claim_threefold = false;  // a threefold-repetition claim is available
  bool claim_fifty = false;      // a fifty-move claim is available
};

std::string to_string(Result r);

// Which game an engine plays: the ruleset's name and every option's value as it runs
// them (defaults included), sorted by name. Two engines play the same game exactly when
// their configs are equal.
struct GameConfig {
  std::string variant;
  std::vector<std::pair<std::string, std::string>> options;
  std::string value(const std::string& name) const;  // "" when absent
  friend bool operator==(const GameConfig& a, const GameConfig& b) {
    return a.variant == b.variant && a.options == b.options;
  }
};

// One outcome of a chance event, with its probability. The weights of a chance node's
// outcomes are positive and sum to 1.
struct ChanceOutcome {
  Action action;
  double weight = 0;
};

// Bad position text: what is wrong, and the 0-based column in the text where it is.
struct PositionError : std::runtime_error {
  size_t column;
  PositionError(const std::string& what, size_t col) : std::runtime_error(what), column(col) {}
};

// perft and other walks that need a fixed draw met a chance node.
struct ChanceError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Controls over how an engine with chance lays out its chance nodes, for searches that
// weigh them (the solver's expected and adversarial modes). Only engines whose draws allow
// it implement this (the compiled card layer: nostress_text.hpp, "Merged chance"); others
// return nullptr from Engine::chance_control(), and a search then runs without them.
class ChanceControl {
 public:
  virtual ~ChanceControl() = default;
  // Merged chance: with it on, the engine may make several draws whose order nothing
  // observes yet one chance node (outcomes: what was drawn, weighted), and draw the order
  // itself only when it shows, so that lines differing only in that order meet in a memo.
  // Values over the tree equal those without it; positions, texts and actions differ.
  virtual void set_merged_chance(bool on) = 0;
  // Deferred draws, for a search whose horizon ends before the side to move acts again:
  // with it on, cards the side to move draws for a later turn (a redraw's new hand) may
  // stay hidden until that turn and be drawn then, one chance node. Exact only when
  // nothing the search still values depends on those cards before that turn (the solver's
  // expected mode turns it on at nodes with one prover move left); the probabilities of
  // the draws in between are unchanged (exchangeability).
  virtual void set_deferred_draws(bool on) = 0;
};

class Engine {
 public:
  virtual ~Engine() = default;

  // "compiled:chess", "reference:chess", ...
  virtual std::string name() const = 0;

  // The game this engine plays (ruleset and option values).
  virtual GameConfig config() const = 0;

  // Position text in the variant's format (FEN for chess). Throws PositionError.
  virtual void set_position(std::string_view text) = 0;
  virtual std::string position() const = 0;

  // All legal actions of the side to move, appended to `out` (cleared first).
  virtual void legal_actions(std::vector<Action>& out) = 0;
  // The actions that obey the movement rules but may leave (or put) an own royal piece
  // attacked (or royal pieces adjacent where they must stay apart): a superset of
  // legal_actions(), each one describable and appliable. The record validator explains a
  // fault with them. The default lists the legal actions ("unknown: treat as legal").
  virtual void pseudo_legal_actions(std::vector<Action>& out) { legal_actions(out); }
  virtual void apply(const Action& a) = 0;
  virtual void undo() = 0;

  virtual Status status() = 0;
  // Whether status() names the end condition that decided a finished game (Status::end,
  // Status::reason), or only its verdict. An engine behind a protocol that reports scores
  // alone (Fairy-Stockfish's UCI: won, lost or drawn) answers false, and a comparison with
  // it then compares verdicts, not end conditions.
  virtual bool names_end_condition() const { return true; }
  // side_in_check(): status().in_check alone, whether the side to move stands in check. An engine that can
  // tell without looking for a legal action (the result) answers it faster; the solver
  // asks it before a full status() where only a checkmate can reach its goal.
  virtual bool side_in_check() { return status().in_check; }
  // Whether the legal action a leaves the opponent in check (true when a draw follows it:
  // the draw is not seen). The default plays it; an engine may test the attack alone.
  virtual bool gives_check(const Action& a) {
    apply(a);
    const bool check = chance() || side_in_check();
    undo();
    return check;
  }
  // The legal actions that leave the opponent in check (those of legal_actions() for which
  // gives_check() holds, in the same order), appended to `out` (cleared first). Problem
  // solvers ask it where only a checkmate can reach the goal (the last move of #N, h#N).
  // The default filters the legal actions by gives_check(); an engine may test the
  // attack without playing each one.
  virtual void checking_actions(std::vector<Action>& out) {
    std::vector<Action> all;
    legal_actions(all);
    out.clear();
    for (const Action& a : all)
      if (gives_check(a)) out.push_back(a);
  }
  // Whether the side to move has a legal action: status().end says it only with the end
  // conditions folded in. The default lists them; an engine may stop at the first.
  virtual bool has_legal_action() {
    std::vector<Action> all;
    legal_actions(all);
    return !all.empty();
  }
  // status() where the side to move is known to have a legal action (the caller holds
  // one): an engine may skip looking for one. The default asks status().
  virtual Status status_when_movable() { return status(); }
  // status() and legal_actions(out) at once: an engine may list the actions once for both.
  virtual Status status_and_actions(std::vector<Action>& out) {
    legal_actions(out);
    return status();
  }
  virtual uint64_t hash() const = 0;
  virtual Color side_to_move() const = 0;

  // Describe an action legal in the current position (before it is applied).
  virtual ActionInfo describe(const Action& a) const = 0;

  // The first step of describe(a) in brief (every field equal) and its number of steps.
  // The default calls describe(); an engine overrides it with code that allocates nothing.
  virtual StepBrief brief(const Action& a) const;

  // True when castling is written king-takes-rook in UCI (Chess960 positions).
  virtual bool chess960() const { return false; }

  // Chance. A position either fixes what is drawn next (a known pile order: the draw is
  // part of the action that causes it) or leaves it open (an unknown pile, a reshuffle
  // whose order the position does not fix). In the second case the position is a chance
  // node: chance() is true, legal_actions() lists the outcomes, chance_outcomes() gives
  // them with their weights, apply() takes one (describe() shows a StepKind::Chance step),
  // and side_to_move() names the player who acts after the draw. status() of a chance node
  // is Ongoing. Engines of variants without chance keep the defaults.
  virtual bool chance() const { return false; }
  virtual void chance_outcomes(std::vector<ChanceOutcome>& out) { out.clear(); }

  // Hidden information: the parts of the position this engine holds as unknown (as the
  // position text marks them), e.g. "draw-pile", "white-hand", "black-hand". An engine
  // never guesses a hidden part: drawing from it is a chance node.
  virtual std::vector<std::string> hidden() const { return {}; }

  // Controls that only some engines with chance have (ChanceControl below), or nullptr.
  virtual ChanceControl* chance_control() { return nullptr; }

  // Leaf-node count of the legal-action tree, counting complete turns. The default walks
  // legal_actions/apply/undo; engines override it with faster code. Throws ChanceError
  // when it meets a chance node: a count needs every draw fixed.
  virtual uint64_t perft(int depth);

  virtual std::unique_ptr<Engine> clone() const = 0;
};

}  // namespace arb
