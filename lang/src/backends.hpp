// The back ends' engines, one factory each: what the facade's make_compiled_engine
// (engine_factory.cpp) chooses from, and what the card layer runs its board on. Each takes
// a Program (program.hpp) and nothing of the front end.
#pragma once

#include <memory>

#include "arbiter/engine.hpp"
#include "arbiter/lang/program.hpp"

namespace arb::lang {

// The bitboard generator of a bounded board without cards (generator.cpp; target
// arbiter_backend_bitboard).
std::unique_ptr<Engine> make_bitboard_engine(std::shared_ptr<const Program> program);

// The unbounded grid (grid_generator.cpp; arbiter_backend_grid).
std::unique_ptr<Engine> make_grid_engine(std::shared_ptr<const Program> program);

// The card layer over the bitboard generator of `program` (card_generator.cpp;
// arbiter_backend_cards).
std::unique_ptr<Engine> make_card_engine(std::shared_ptr<const Program> program);

}  // namespace arb::lang
