// The expectation runner: checks the `expect` lines a ruleset states about itself
// (perft counts, statuses, legal and illegal actions) on any engine. `arbiter test` runs it
// on the compiled generator or a reference engine; the solver and the record validator can
// run it on theirs.
#pragma once

#include <chrono>
#include <cstdint>
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
  // The line cannot be run: the engine refuses its position (a fault of the ruleset,
  // `arbiter test` exits 2), as opposed to a count or status that differs (exit 1).
  bool unusable = false;
  double seconds = 0;
};

using EngineMaker = std::function<std::unique_ptr<Engine>()>;

// What a perft expectation may cost (`arbiter test --max-nodes`, `--timeout`). A perft is
// counted depth by depth (1, 2, ... the stated depth: a few percent more work); the next
// depth is not started when its count, estimated from the growth of the last two, passes
// `max_nodes`, or its time, estimated alike, passes the deadline. Such a line fails with
// "not counted: ..." instead of running without end (`perft 12 = 1` from the start).
struct ExpectBudget {
  static constexpr uint64_t kDefaultMaxNodes = 1000000000;
  uint64_t max_nodes = kDefaultMaxNodes;  // 0: no limit
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
};

// Runs one expectation on a fresh engine from `make` (at its start, or at the position
// the line names). A perft deeper than `max_depth` fails without running; a position the
// engine refuses fails with its message (and is `unusable`).
ExpectOutcome run_expectation(const Expectation& ex, const EngineMaker& make, int max_depth,
                              const ExpectBudget& budget = {});

std::vector<ExpectOutcome> run_expectations(const std::vector<Expectation>& expects, const EngineMaker& make,
                                            int max_depth, const ExpectBudget& budget = {});

}  // namespace arb::lang
