// Janggi's primitives (issue 24), each general: the compile step of `hops-not-over`,
// `never-captures`, `points`, the turn's `pass`, and the ends `double-pass`,
// `royals-facing` (bikjang) and `counting` (pass_compile.cpp). The generator's part is
// the section "passes, facing royals, counting" of gen_generate.hpp and gen_pass.hpp.
#pragma once

#include <vector>

#include "arbiter/lang/compile.hpp"
#include "arbiter/lang/diagnostics.hpp"
#include "arbiter/lang/model.hpp"

namespace arb::lang {

// Fills the type masks, points and the pass rules of p from the model; reports misuse at
// the construct's place. `used` maps each program type to its model piece. Runs after the
// pieces and the rules are compiled.
void compile_pass_rules(const Model& m, const std::vector<int>& used, Program& p, Diagnostics& d);

}  // namespace arb::lang
