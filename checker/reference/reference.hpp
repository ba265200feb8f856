// Factories of the hand-written reference engines (one folder per variant beside this
// file). Written from ../shared/rules and RULINGS.md alone; they share no move-generation
// code with lang/.
#pragma once

#include <memory>
#include <string>

#include "arbiter/engine.hpp"

namespace arb::ref {

std::unique_ptr<Engine> make_chess_engine();
std::unique_ptr<Engine> make_chessembly_engine();
std::unique_ptr<Engine> make_chessme_engine();

// The reference engine of a variant by name ("chess", "chessembly", "chessme"), or
// nullptr when the variant has none yet.
std::unique_ptr<Engine> make_reference_engine(const std::string& variant);

}  // namespace arb::ref
