// The expectation runner: checks the `expect` lines a ruleset states about itself
// (perft counts, statuses, legal and illegal actions) on any engine. `arbiter test` runs it
// on the compiled generator or a reference engine; the solver and the record validator can
// run it on theirs.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "arbiter/engine.hpp"
#include "arbiter/lang/model.hpp"

namespace arb::lang {

struct ExpectOutcome {
  const Expectation* expectation = nullptr;
  std::string where;  // file:line:col of the expect line
  std::string want, got;
  bool ok = false;
  double seconds = 0;
};

using EngineMaker = std::function<std::unique_ptr<Engine>()>;

// Runs one expectation on a fresh engine from `make` (at its start, or at the position
// the line names). A perft deeper than `max_depth` fails without running; a position the
// engine refuses fails with its message.
ExpectOutcome run_expectation(const Expectation& ex, const EngineMaker& make, int max_depth);

std::vector<ExpectOutcome> run_expectations(const std::vector<Expectation>& expects, const EngineMaker& make,
                                            int max_depth);

}  // namespace arb::lang
