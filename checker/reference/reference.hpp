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
// ChessMe (RULINGS.md section 2). Options (arb::TileRules): `tiles` = one side's tiles
// that start in the draw pile, upper case Q R B N P (default QRRBBNNPPPP; `-` none),
// `hand-size` = the most tiles a hand holds (default 3), `draw` = the tiles the setup
// draws into each hand (default 3, no more than hand-size); after a placement one tile
// is drawn, as the rule text says. `seed` = the deal of `start` (default 1). Throws
// std::invalid_argument for an unknown option or a bad value.
std::unique_ptr<Engine> make_chessme_engine(const std::map<std::string, std::string>& options = {});

// No Stress Chess (RULINGS.md section 3). Options: `level` = 1, 2, 3 or advanced (default
// 3); `setup-advanced-pawns` = true (default: RULINGS 3.1's setup) or false (the chess
// setup); `seed` = the deal of `start` (default 1); `hand-size` = 0..8, the hand between
// turns, overriding the level's (0: turn the top card and play it, no redraw);
// `deck` = each card kind's letter (P N B R Q K A, A = Again) then its count, e.g.
// `P11N8B8R8Q8K7A6` (the default), a kind not listed has none. Throws std::invalid_argument
// for an unknown option or a bad value (a deck too small to deal two hands and a draw too).
// The engine starts at set_position("start").
std::unique_ptr<Engine> make_nostress_engine(const std::map<std::string, std::string>& options = {});

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

// The reference engine of a variant by name ("chess", "chessembly", "chessme",
// "nostress", "chess2") with its options, or nullptr when the variant has none yet.
// Throws std::invalid_argument for an option the variant does not have (chess and
// chessembly have none) or a bad value.
std::unique_ptr<Engine> make_reference_engine(const std::string& variant,
                                              const std::map<std::string, std::string>& options = {});

}  // namespace arb::ref
