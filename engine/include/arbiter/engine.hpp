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
// the variants' own forms) is built from this.
enum class StepKind : uint8_t {
  Move,       // a piece moves from `from` to `to` (captures when `capture`)
  Place,      // a piece from a reserve or hand is put on `to`
  Pass,       // a lost turn (No Stress Chess)
  Redraw,     // discard and redraw a hand (No Stress Chess)
  Whirlwind,  // a warrior king removes its neighbours without moving (Chess 2)
};
enum class Castle : uint8_t { None = 0, KingSide, QueenSide };

struct Step {
  StepKind kind = StepKind::Move;
  char piece = 0;  // upper-case letter of the moving or placed piece type
  Coord from{};
  Coord to{};          // for castling: the castling rook's square (king-takes-rook form)
  char promotion = 0;  // upper-case letter of the promoted-to / exchanged-for piece
  bool capture = false;
  Castle castle = Castle::None;
  Coord king_to{};  // for castling: the king's destination
  char card = 0;    // No Stress Chess: the card played
};

struct ActionInfo {
  std::vector<Step> steps;
};

enum class Result : uint8_t { Ongoing, WhiteWins, BlackWins, Draw };

// Status of the position for the side to move. `reason` names why the game ended
// ("checkmate", "stalemate", "insufficient-material", "no-legal-move", "royal-capture",
// "midline-invasion", "chessme-draw") and is empty while the game goes on.
struct Status {
  Result result = Result::Ongoing;
  std::string reason;
  bool in_check = false;
  bool claim_threefold = false;  // a threefold-repetition claim is available
  bool claim_fifty = false;      // a fifty-move claim is available
};

std::string to_string(Result r);

// Bad position text: what is wrong, and the 0-based column in the text where it is.
struct PositionError : std::runtime_error {
  size_t column;
  PositionError(const std::string& what, size_t col) : std::runtime_error(what), column(col) {}
};

class Engine {
 public:
  virtual ~Engine() = default;

  // "compiled:chess", "reference:chess", ...
  virtual std::string name() const = 0;

  // Position text in the variant's format (FEN for chess). Throws PositionError.
  virtual void set_position(std::string_view text) = 0;
  virtual std::string position() const = 0;

  // All legal actions of the side to move, appended to `out` (cleared first).
  virtual void legal_actions(std::vector<Action>& out) = 0;
  virtual void apply(const Action& a) = 0;
  virtual void undo() = 0;

  virtual Status status() = 0;
  virtual uint64_t hash() const = 0;
  virtual Color side_to_move() const = 0;

  // Describe an action legal in the current position (before it is applied).
  virtual ActionInfo describe(const Action& a) const = 0;

  // True when castling is written king-takes-rook in UCI (Chess960 positions).
  virtual bool chess960() const { return false; }

  // Leaf-node count of the legal-action tree. The default walks legal_actions/apply/undo;
  // engines override it with faster code.
  virtual uint64_t perft(int depth);

  virtual std::unique_ptr<Engine> clone() const = 0;
};

}  // namespace arb
