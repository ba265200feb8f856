// Factories of the hand-written reference engines (one folder per variant beside this
// file). Written from ../shared/rules and RULINGS.md alone; they share no move-generation
// code with lang/.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "arbiter/engine.hpp"

namespace arb::ref {

std::unique_ptr<Engine> make_chess_engine();
std::unique_ptr<Engine> make_chessembly_engine();
std::unique_ptr<Engine> make_chessme_engine();

// Chess 2 (six armies, midline invasion, no duels). Options `white-army` and `black-army`:
// classic (default), nemesis, empowered, reaper, two-kings, animals. Throws
// std::invalid_argument on an unknown option or army. Position text: see chess2/chess2.cpp.
std::unique_ptr<Engine> make_chess2_engine(const std::map<std::string, std::string>& options = {});

// The back rank of Chess960 position `n` (0..959, 518 = "RNBQKBNR"), classic letters.
std::string chess2_back_rank(int n);

// The rule text's dice procedure (chess2.txt, "Procedure to Determine Starting
// Positions"): a six-sided die driven by splitmix64 from `seed`, rerolling as the text
// says; returns the Chess960 number N of the back rank it builds, for `start:N`.
int chess2_dice_start(uint64_t seed);

// The reference engine of a variant by name ("chess", "chessembly", "chessme", "chess2"),
// or nullptr when the variant has none yet. `options` are the variant's options (only
// chess2 has any; options for another variant throw std::invalid_argument).
std::unique_ptr<Engine> make_reference_engine(const std::string& variant,
                                              const std::map<std::string, std::string>& options = {});

}  // namespace arb::ref
