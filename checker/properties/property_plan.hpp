// Which metamorphic properties (fuzz/properties.hpp) hold for a ruleset, decided from its
// statements: a property is checked only where every statement the ruleset makes is known
// to keep it, and a property left out is named with the statement (file:line:col) that
// breaks it or that nothing vouches for. Links the language, unlike the checker itself.
#pragma once

#include <map>
#include <string>

#include "arbiter/lang/model.hpp"
#include "fuzz/properties.hpp"

namespace arb::properties {

// `options`: the option values the ruleset runs with (--set), for the armies each side plays.
arb::fuzz::PropertyPlan plan_for(const arb::lang::Model& m);

}  // namespace arb::properties
