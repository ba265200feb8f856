// The compiled generator: runs a Program (program.hpp) on bitboards. Nothing here knows a
// piece by name; every move comes from the program's per-square tables.
#include "backends.hpp"
#include "generator_impl.hpp"

namespace arb::lang {

std::unique_ptr<Engine> make_bitboard_engine(std::shared_ptr<const Program> program) {
  if (const auto* t = program->tables64.get())
    return std::make_unique<Generator<uint64_t>>(std::move(program), t);
  if (const auto* t = program->tables128.get())
    return std::make_unique<Generator<Wide<2>>>(std::move(program), t);
  const auto* t = program->tables256.get();
  return std::make_unique<Generator<Wide<4>>>(std::move(program), t);
}

}  // namespace arb::lang
