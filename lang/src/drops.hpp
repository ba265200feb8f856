// Hands filled by captures and drops (issue 24: crazyhouse, shogi): the compile step of
// `captures-to-hand` and of the pieces' `drop` restrictions (drops_compile.cpp). The
// generator's part is the section "hands and drops" of gen_hands.hpp (generator_impl.hpp).
#pragma once

#include "arbiter/lang/compile.hpp"
#include "arbiter/lang/diagnostics.hpp"
#include "arbiter/lang/model.hpp"

namespace arb::lang {

// Fills p.capture_to_hand, p.demote and each type's drop flags from the model; reports,
// at the construct's place, what the bitboard generator cannot run with them. `used`
// maps each program type to its model piece. Runs after the pieces and the rules are
// compiled.
void compile_hands(const Model& m, const std::vector<int>& used, Program& p, Diagnostics& d);

}  // namespace arb::lang
