// Factories of the hand-written reference engines (one folder per variant beside this
// file). Written from ../shared/rules and RULINGS.md alone; they share no move-generation
// code with lang/.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "arbiter/engine.hpp"

namespace arb::ref {

std::unique_ptr<Engine> make_chess_engine();
std::unique_ptr<Engine> make_chessembly_engine();
std::unique_ptr<Engine> make_chessme_engine();

// No Stress Chess (RULINGS.md section 3). Options: `level` = 1, 2, 3 or advanced (default
// 3); `setup-advanced-pawns` = true (default: RULINGS 3.1's setup) or false (the chess
// setup); `seed` = the deal of `start` (default 1). Throws std::invalid_argument for an
// unknown option or a bad value. The engine starts at set_position("start").
std::unique_ptr<Engine> make_nostress_engine(const std::map<std::string, std::string>& options = {});

// The reference engine of a variant by name ("chess", "chessembly", "chessme",
// "nostress") with its options, or nullptr when the variant has none yet. Throws
// std::invalid_argument for an option the variant does not have (chess, chessembly and
// chessme have none) or a bad value.
std::unique_ptr<Engine> make_reference_engine(const std::string& variant,
                                              const std::map<std::string, std::string>& options = {});

}  // namespace arb::ref
