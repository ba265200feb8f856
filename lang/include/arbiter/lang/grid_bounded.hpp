// The grid back end on a bounded board (issue 26): a second back end for a ruleset whose
// board is a `board W x H` rectangle, so that `arbiter fuzz --against grid` can compare
// the bitboard generator with an engine that shares none of its move generation. Pieces
// are move vectors walked on a W x H mailbox (lang/src/grid_bounded.cpp); the rules that
// are not movement (the start, castling files, claims, the dead-position decision) come
// from the bitboard compile of the same ruleset, which must succeed first.
#pragma once
#include <memory>

#include "arbiter/engine.hpp"
#include "arbiter/lang/compile.hpp"
#include "arbiter/lang/model.hpp"

namespace arb::lang {

struct BoundedGridProgram;  // grid_bounded_compile.cpp

// Compiles `m` for the grid back end on its bounded board. Every construct the grid back
// end cannot execute there is an error at its file:line:col naming it (all of them, not
// just the first); returns nullptr then. `program` is the bitboard compile of `m`.
std::shared_ptr<const BoundedGridProgram> compile_bounded_grid(const Model& m,
                                                               std::shared_ptr<const Program> program,
                                                               Diagnostics& diags);

// The engine running a bounded grid program; it reads and writes the same FEN as the
// bitboard generator of the ruleset.
std::unique_ptr<Engine> make_bounded_grid_engine(std::shared_ptr<const BoundedGridProgram> grid);

}  // namespace arb::lang
