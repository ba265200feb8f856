// Flipping pieces and passes (issue 24: ataxx, Reversi). The compile step
// (flip_compile.cpp) fills Program::flips and each type's PieceProgram::convert from the
// model; the generator's part is gen_flip.hpp.
#pragma once

#include "arbiter/lang/compile.hpp"
#include "arbiter/lang/diagnostics.hpp"
#include "arbiter/lang/model.hpp"

namespace arb::lang {

// Reports, at the construct's place, what the bitboard generator cannot run with them.
// `used` maps each program type to its model piece. Runs after compile_hands.
void compile_flipping(const Model& m, const std::vector<int>& used, Program& p, Diagnostics& d);

}  // namespace arb::lang
