// Squares and action notation built on ActionInfo, shared by every engine: the canonical
// UCI-like text (the currency the checker compares), SAN, and parsing of both.
#pragma once

#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arbiter/engine.hpp"

namespace arb {

// `e4` when 0 <= x <= 25 and y >= 1, otherwise the general form `(x,y)`.
std::string square_name(Coord c);
// Parses a square at `pos` (algebraic or `(x,y)`), advancing `pos`. nullopt when none.
std::optional<Coord> parse_square(std::string_view s, size_t& pos);

enum class Notation { Uci, San };

// Canonical text of one action (a complete turn): its steps joined by ','. Moves `e2e4`
// (a capture, en passant or a rampage is written the same: the removed pieces are in the
// ActionInfo), promotions `e7e8q`, placements `P@e1`, castling `e1g1` (or king-takes-rook
// `e1h1` when chess960 is set or the position is not a standard one), `pass`, `redraw`,
// whirlwinds `W*d4` (the acting king's letter and square), strikes without moving
// `c1^a3`, chance outcomes `draw:N`; a card prefix `N:` (`A:` for Again) for card-driven
// variants. A Chess 2 king-turn is the step after the first: `e2e4,d1d2`, `e2e4,W*d1`.
// SAN writes a strike `T^a3` (disambiguated like a move).
std::string uci(const ActionInfo& info, bool chess960 = false);

// SAN of an action legal in the engine's current position (disambiguation, `+` for a
// check, `#` for an action that wins the game by any win condition: checkmate, midline
// invasion, king capture, no legal move left to the opponent).
// Placements are written `P@e1` (or the Chessembly form `pPe1` when `placement_p`).
std::string san(Engine& e, const Action& a, bool placement_p = false);
// The same with the descriptions of every legal action at hand (any order): no move
// generation for the disambiguation, one for the mark.
std::string san(Engine& e, const Action& a, const std::vector<ActionInfo>& legal, bool placement_p = false);

// Text of an action in the given notation.
std::string action_text(Engine& e, const Action& a, Notation n);

// Finds the legal action written `text` in UCI, SAN (check marks and annotations
// ignored), `K@e1` or `pKe1` form. nullopt when no legal action matches, or several do.
// Real-world forms are read: more disambiguation than needed (`Ng1f3`, `Ng1-f3`), a
// promotion without `=` (`e8Q`), an `e.p.` suffix (refused on a move that is no en-passant
// capture), `0-0`/`0-0-0`, and `+`, `#`, `!`, `?` marks in any order (`0-0+`, `e4!?`).
std::optional<Action> parse_action(Engine& e, std::string_view text);
// The same with the legal actions and their descriptions at hand (legal[i] described by
// infos[i]): no move generation, for a caller that reads many texts in one position.
std::optional<Action> parse_action(Engine& e, std::string_view text, const std::vector<Action>& legal,
                                   const std::vector<ActionInfo>& infos);

// What the text of one step says, in every notation parse_action reads: SAN (`Nbd2`,
// `exd6`, `e8=Q`, `e8Q`), long algebraic (`Ng1-f3`), the canonical form (`e7e8q`), castling
// `O-O`/`0-0`, placements `P@e1`/`pPe1`, whirlwinds `W*d4`, strikes `T^a3`/`c1^a3`, a card
// prefix `N:`, `pass`, `redraw`, `draw:...`. Marks and annotations are not part of it.
struct StepPattern {
  StepKind kind = StepKind::Move;
  char card = 0;
  char piece = 0;                          // upper case; 0 when not written (a pawn in SAN, any piece in UCI)
  bool full = false;                       // the from square written in full (UCI, long algebraic)
  int32_t fx = INT32_MIN, fy = INT32_MIN;  // the from file / rank, when written
  Coord to{};                              // a whirlwind's acting square (StepKind::Remove, not aimed)
  char promo = 0;
  bool capture = false;  // written with `x` or `:` (not required to match: see step_matches)
  Castle castle = Castle::None;
  bool aimed = false;  // StepKind::Remove written `c1^a3`: a strike at `to`
  std::string drawn;
  std::string label;            // StepKind::Pass: "" for `pass`, else the word written (`redraw`)
  std::optional<Coord> victim;  // `d5e6xe5`: the square an en-passant capture empties
};
// One step's text (no marks). False when it is no notation of a step.
bool parse_step_pattern(std::string_view text, StepPattern& out);
// An action's text: trailing marks and annotations (`+ # ! ?`, an ` e.p.` or `ep` suffix)
// set aside, then steps split at ',' outside `(x,y)`. False when a step is unreadable.
struct ActionPattern {
  std::vector<StepPattern> steps;
  bool en_passant = false;  // written with `e.p.`
};
bool parse_action_pattern(std::string_view text, ActionPattern& out);
// Whether a step (or the brief of an action's first step) is one the pattern describes. A
// capture mark is not checked (real-world records write `x` loosely); a Chance or Pass
// pattern matches every Chance or Pass brief (a brief has no drawn text and no label). `ignore_card` skips
// the card.
bool step_matches(const StepPattern& p, const Step& s, bool ignore_card = false);
bool step_matches(const StepPattern& p, const StepBrief& s, bool ignore_card = false);

}  // namespace arb
