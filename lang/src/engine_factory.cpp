// make_compiled_engine (compile.hpp): the facade's choice of back end for a Program. The
// back ends never call it; the card layer runs its board on make_bitboard_engine directly,
// so the targets' links point one way (cards -> bitboard -> program).
#include "arbiter/lang/compile.hpp"
#include "backends.hpp"

namespace arb::lang {

std::unique_ptr<Engine> make_compiled_engine(std::shared_ptr<const Program> program) {
  if (program->cards) return make_card_engine(std::move(program));
  if (program->grid) return make_grid_engine(std::move(program));
  return make_bitboard_engine(std::move(program));
}

}  // namespace arb::lang
