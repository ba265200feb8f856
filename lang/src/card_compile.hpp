// The compiler's step for the card layer (card_compile.cpp).
#pragma once

#include "arbiter/lang/diagnostics.hpp"
#include "arbiter/lang/model.hpp"
#include "arbiter/lang/program.hpp"

namespace arb::lang {

// Compiles the card layer of a model with a `deck` into p.cards; errors at the constructs'
// places.
void compile_cards(const Model& m, Program& p, Diagnostics& d);

}  // namespace arb::lang
