// Metamorphic properties of one engine: a check that needs no second engine (issue 26). A
// designer's ruleset without a hand-written reference still gets an independent check:
// random games on the compiled generator alone, and at every node the relations any
// correct move generator obeys:
//
//   apply-undo     apply then undo restores the position text, the hash and the status
//   perft-copy     perft by apply and undo (the engine's own and the interface walk)
//                  equals perft by copy (every child a clone with the action applied)
//   readback       the printed position reads back to the same text, hash, status and
//                  actions; every action's UCI and SAN text reads back to that action
//   colour-flip    the colour-flipped position (ranks mirrored, colours swapped) has the
//                  colour-flipped actions and the mirrored status
//   mirror         the left-right mirrored position (castling rights removed) has the
//                  mirrored actions and the same status
//   translation    the unbounded grid's position moved by (dx, dy) has the moved actions
//   transposition  two orders of the same three plies (a b c, c b a) reaching the same
//                  position text give the same hash, status and actions
//   colour-rotation  the position turned through 180 degrees with the colours swapped
//                  (square (x, y) to (w+1-x, h+1-y), castling rights removed) has the
//                  turned actions and the mirrored status: the colour symmetry of a game
//                  whose Black is White turned (legan's zones, isolation's open squares),
//                  where the flip (a rank mirror) does not hold
//
// Which properties hold is decided from the ruleset's statements (property_plan.hpp); a
// property the plan leaves out is named with the reason. A violation is shrunk (pieces
// removed, grid positions moved toward the origin) while the same property still fails.
// Nothing here knows a variant: engines through arb::Engine, texts by their format.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "fuzz/fuzz.hpp"

namespace arb::fuzz {

enum class Property : uint8_t {
  ApplyUndo,
  PerftCopy,
  Readback,
  ColourFlip,
  Mirror,
  Translation,
  Transposition,
  ColourRotation
};
constexpr int kProperties = 8;
const char* to_string(Property p);
std::optional<Property> property_named(const std::string& name);

// Which properties run, and for each one left out, why (with the statement's place).
struct PropertyPlan {
  bool on[kProperties] = {true, true, true, true, true, true, true, true};
  std::string reason[kProperties];  // why a property is off ("" when on)
  // Why the colour rotation is checked (the statements that chose it), printed with it.
  std::string rotation_chosen;
  // Positions checked for the mirror (and the rotation) lose their castling rights first
  // (castling moves the king and rook to fixed files: not mirror-symmetric).
  bool mirror_strips_castling = false;
  // A shared deck (No Stress Chess): positions checked for the flip are those whose pile
  // holds every card the turn may draw (a reshuffle stacks White's discards under Black's).
  bool flip_keeps_pile = false;
  bool enabled(Property p) const { return on[static_cast<int>(p)]; }
  void skip(Property p, const std::string& why) {
    on[static_cast<int>(p)] = false;
    if (reason[static_cast<int>(p)].empty()) reason[static_cast<int>(p)] = why;
  }
};

struct PropertyOptions {
  uint64_t seed = 1;
  uint64_t games = 20;
  double seconds = 0;  // > 0: run until this much time has passed instead of `games`
  int max_plies = 60;
  int perft_depth = 2;     // depth of perft-copy
  int perft_every = 8;     // perft-copy at every Nth node (it costs the most)
  int transpositions = 2;  // tries per node
  int mutate_percent = 6;  // chance per ply of playing on from a mutated position text
  // At a node with more actions than this, the per-action checks (apply-undo, each action's
  // texts read back, perft-copy's subtrees) take this many of them, drawn at random from the
  // node's seed; the position-level checks stay whole. 0: every action.
  int action_sample = 64;
  bool progress = false;
  std::atomic<bool>* stop = nullptr;
};

struct Violation {
  std::string property;  // its name (to_string)
  std::string position;  // where it fails (shrunk)
  std::string original;  // where the games found it, before shrinking
  std::string after;     // transposition: the two orders played; a transform: its text
  // The action (canonical text) played from `position` to reach the failing node, when the
  // failure shows only on a position reached by play (its text read afresh passes: the
  // text loses something the played position had, e.g. an en-passant square); else "".
  std::string played;
  std::string left, right;  // what was expected / what the engine answered
  std::string diff;         // action sets: `+X` expected only, `-Y` found only
  int plies = 0;            // plies from the game start
};

struct PropertyReport {
  uint64_t games = 0, positions = 0;
  std::map<std::string, uint64_t> checks;  // property name -> nodes it was checked at
  double seconds = 0;
  std::map<std::string, double> seconds_by_property;  // property name -> time it took
  std::optional<Violation> violation;
};

// How a node is checked besides the plan.
struct NodeOptions {
  int action_sample = 0;                             // PropertyOptions::action_sample (0: every action)
  std::map<std::string, double>* seconds = nullptr;  // each property's time is added here
};

// Checks the plan's properties at the engine's current position (the engine is left as it
// was). `make` gives fresh engines of the same game; `seed` drives the random choices of
// the transposition check and the action samples; `with_perft` includes perft-copy; `only`
// restricts to one. `checks` counts "action-sampled nodes" where a sample was taken.
std::optional<Violation> check_node(Engine& e, const EngineFactory& make, const PropertyPlan& plan,
                                    uint64_t seed, bool with_perft,
                                    std::optional<Property> only = std::nullopt,
                                    std::map<std::string, uint64_t>* checks = nullptr,
                                    const NodeOptions& node = {});

// Shrinks a violation: smaller position texts (mutate.hpp: removal_candidates, and for the
// grid a move toward the origin) on which the same property still fails, each checked with
// the same action sample as the games.
Violation shrink(const EngineFactory& make, const PropertyPlan& plan, Violation v, int action_sample = 0);

// Random games from `start` on engines made by `make`; stops at the first violation
// (shrunk). Throws std::runtime_error when the engine refuses `start`.
PropertyReport check_properties(const EngineFactory& make, const std::string& start, const PropertyPlan& plan,
                                const PropertyOptions& o);

// The texts transformed as the properties transform them: nullopt when the text is not
// one the transformation applies to (colour flip and mirror: FEN, any board size, with or
// without a bracketed reserve; the grid's text: translation). The flip swaps a `checks`
// counter (`3+2` becomes `2+3`) and No Stress Chess's hands and discard piles; it gives
// nullopt for a No Stress text with a fixed reshuffle and too few cards left in the pile
// for the turn (RULINGS 3.8: a reshuffle stacks White's discards under Black's).
std::optional<std::string> flip_position(const std::string& fen);
std::optional<std::string> mirror_position(const std::string& fen, bool strip_castling);
// The mirror then the flip: the board turned through 180 degrees, the colours swapped.
std::optional<std::string> rotate_position(const std::string& fen, bool strip_castling);
// The grid's text (chessme_text.hpp): ranks flipped around 0 with colours, hands, piles and
// capture piles swapped; files mirrored around 0. nullopt for another format.
std::optional<std::string> flip_grid_position(const std::string& text);
std::optional<std::string> mirror_grid_position(const std::string& text);

arb::Json to_json(const Violation& v);
arb::Json plan_json(const PropertyPlan& p);
// One line per property: `on` or `skipped: REASON`.
std::string plan_text(const PropertyPlan& p);

}  // namespace arb::fuzz
