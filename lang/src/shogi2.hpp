// The shogi family's primitives (issue 24: tori shogi, kyoto shogi, micro shogi, dobutsu,
// sho shogi, placement chess): their compile steps (shogi2_compile.cpp). The generator's
// part is the section "the shogi family" of gen_hands.hpp (generator_impl.hpp).
#pragma once

#include "arbiter/lang/compile.hpp"
#include "arbiter/lang/diagnostics.hpp"
#include "arbiter/lang/model.hpp"

namespace arb::lang {

// `orientation rotated`: Black's moves are White's turned through 180 degrees (files
// reversed as well as ranks), as Fairy-Stockfish turns every piece; without it (or with
// `orientation mirrored`) Black's are White's mirrored across the middle rank, as in chess.
// The two differ only for pieces whose left and right moves differ (tori shogi's quails).
bool black_rotated(const Model& m);

// `demotes in REGION [capturing]` (on a promoted type) and `drop promoted`: the type a
// demoting piece turns back into (the one promoting to it, from the hands' table), and
// the promoted drops. Runs after compile_hands(); reports misuse at the construct.
void compile_flips(const Model& m, const std::vector<int>& used, Program& p, Diagnostics& d);

// `legal { must-drop }` and `castling { by-drop }` need drops (and castling): located errors.
void compile_drop_rules(const Model& m, Program& p, Diagnostics& d);

}  // namespace arb::lang
