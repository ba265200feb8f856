// Z3's mate-in-1 answer against a move generator's, position by position: the synthesis
// encoding (synth.hpp) as a second back end of the ruleset compiler, used as a reference
// for the generator (issue 26). For each position every square is fixed (the position
// itself), castling rights and the en-passant square removed (the encoding states neither),
// and Z3 asked for a mate in 1 for the side to move:
//   - sat with an action M: M must be one of the generator's mating actions;
//   - unsat, proved (not `incomplete`): the generator must have no mating action;
//   - a timeout or an incomplete answer proves nothing and is counted as such.
// The generator side is any engine (`engines`), so a broken engine is told apart from
// the program Z3 encodes.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "arbiter/engine.hpp"
#include "arbiter/lang/compile.hpp"
#include "arbiter/lang/model.hpp"

namespace arb::synth {

struct Mate1Difference {
  std::string position;  // as asked (rights removed)
  std::string z3;        // Z3's answer: "mate by M" or "no mate in 1 (proved)"
  std::string engine;    // the engine's mating actions, or "none"
};

struct Mate1Report {
  int positions = 0;     // positions compared
  int with_mate = 0;     // of which the engine has a mate in 1
  int inconclusive = 0;  // Z3 timed out or could not prove its unsat
  int refused = 0;       // positions the encoding cannot take (a reserve, an unreadable text)
  std::vector<Mate1Difference> differences;
  double seconds = 0;
};

// The engine's mating actions at `position` (canonical texts, sorted): the actions after
// which the side to move has won by checkmate.
std::vector<std::string> mating_actions(Engine& e);

// `position` with castling rights and the en-passant square written `-` (FEN); the text
// itself for other formats.
std::string without_rights(const std::string& position);

// Random endings of a bounded board, where mates in 1 are frequent and Z3 is quick: the
// royal pieces of the model and one to three other pieces of its setup, each side's, on
// random squares, either side to move; only texts the engine accepts, games not ended;
// half of them with a mate in 1 for the side to move as the engine sees it, half without.
// `engine` is at the ruleset's start (its text gives the board and the pieces).
std::vector<std::string> random_endings(const lang::Model& m, Engine& engine, int count, uint64_t seed);

Mate1Report compare_mate_in_1(const std::shared_ptr<const lang::Program>& program,
                              const std::function<std::unique_ptr<Engine>()>& engines,
                              const std::vector<std::string>& positions, double timeout_seconds = 20);

}  // namespace arb::synth
