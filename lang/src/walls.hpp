// Wall squares (issue 24: Fairy-Stockfish's wall squares `*`, wallingRule, petrifyOnCapture):
// the compile step of `walls` and `petrify` (walls_compile.cpp). The generator's part is
// gen_walls.hpp (part of the generator class, generator_impl.hpp).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "arbiter/lang/compile.hpp"
#include "arbiter/lang/diagnostics.hpp"
#include "arbiter/lang/model.hpp"

namespace arb::lang {

// Fills p.walls, p.wall_rule, p.wall_region and p.petrify_types from the model; reports,
// at the construct's place, what the bitboard generator cannot run with them. `used` maps
// each program type to its model piece; `region_of` gives a region's index. Runs after the
// pieces, the rules and the hands are compiled.
void compile_walls(const Model& m, const std::vector<int>& used, Program& p, Diagnostics& d,
                   const std::function<int(const std::string&)>& region_of);

}  // namespace arb::lang
