// The rules under which the proof-game search's filters hold (proofgame.hpp), read from
// the compiled program: the one part of proof games that sees lang/ (program.hpp, the
// compiler's output), so it is its own target, arbiter_proofgame_rules.
#include <algorithm>
#include <cstdlib>
#include <string>

#include "arbiter/lang/program.hpp"
#include "arbiter/proofgame.hpp"

namespace arb::proofgame {

bool witness_filters_apply(const lang::Program& p, std::string* why) {
  auto no = [why](const std::string& reason) {
    if (why) *why = reason;
    return false;
  };
  if (!p.grid)
    return no("the rules are not on the unbounded grid (captures elsewhere, en passant, castling)");
  if (!p.royal_safe) return no("actions may leave a royal piece attacked (no `royal-safe`)");
  for (const lang::GridPiece& t : p.grid->types)
    for (const auto& side : t.moves)
      for (const lang::GridMove& m : side) {
        const int reach = std::max(std::abs(m.dx), std::abs(m.dy));
        if (m.rider ? reach > 1 : reach > 2)
          return no(std::string("piece `") + t.letter + "` " + (m.rider ? "rides off the lines" : "leaps") +
                    " (" + std::to_string(m.dx) + "," + std::to_string(m.dy) + ")" +
                    (m.rider ? "" : ": farther than two squares"));
      }
  return true;
}

bool ends_only_without_moves(const lang::Program& p) {
  return !p.invasion && !p.royal_capture && !p.insufficient_draw && !p.cards;
}

bool goal_filters_apply(const Goal& goal, const lang::Program& p, std::string* why) {
  if (goal.kind == Goal::Kind::Draw) {
    if (p.insufficient_draw) {
      if (why) *why = "a draw by insufficient material leaves legal moves (the filters need a no-move goal)";
      return false;
    }
  } else if (!goal.stuck_unchecked()) {
    if (why) *why = "the goal `" + goal.text() + "` is not a no-move position out of check";
    return false;
  }
  return witness_filters_apply(p, why);
}

}  // namespace arb::proofgame
