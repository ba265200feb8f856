// Squares and action notation built on ActionInfo, shared by every engine: the canonical
// UCI-like text (the currency the checker compares), SAN, and parsing of both.
#pragma once

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

// Text of an action in the given notation.
std::string action_text(Engine& e, const Action& a, Notation n);

// Finds the legal action written `text` in UCI, SAN (check marks and annotations
// ignored), `K@e1` or `pKe1` form. nullopt when no legal action matches.
std::optional<Action> parse_action(Engine& e, std::string_view text);

}  // namespace arb
