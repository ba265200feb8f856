// An engine's optional listing of the legal actions onto one square. The record validator
// resolves a move written with its destination (SAN `Nf3`, `exd5`) through it when the
// engine offers it (a cross-cast from Engine, once per game); an engine without it is asked
// for all its legal actions. Kept apart from engine.hpp: a capability of the compiled
// generator, not of every engine.
#pragma once

#include <vector>

#include "arbiter/engine.hpp"

namespace arb {

class TargetedActions {
 public:
  // The legal actions whose brief names the square `to` (brief(a).to == to), in the order of
  // legal_actions(); false when the engine cannot list them alone here (the turn layer, end
  // conditions that filter the whole list, a square off the board): out is then unspecified.
  virtual bool legal_actions_to(Coord to, std::vector<Action>& out) = 0;

 protected:
  ~TargetedActions() = default;
};

}  // namespace arb
