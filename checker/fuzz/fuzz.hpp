// The differential checker: plays random games on two engines at once and compares, at
// every node, the set of legal actions (canonical text), the status with its reason, and
// the position text after each action. Nothing here is specific to a variant: it sees
// engines only through arb::Engine.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arbiter/engine.hpp"

namespace arb::fuzz {

using EngineFactory = std::function<std::unique_ptr<Engine>()>;

struct Divergence {
  std::string position;  // where the engines disagree (shrunk)
  std::string action;    // the action after which they disagree, or "" for the node itself
  std::string what;      // "actions", "status", "position", "accepts"
  std::string left, right;  // each engine's answer
  std::string diff;      // the difference, e.g. "+e1g1 -e1c1"
  int plies = 0;         // plies from the start of the game to the divergence
};

struct Options {
  uint64_t seed = 1;
  uint64_t games = 100;
  double seconds = 0;  // > 0: run until this much time has passed instead of `games`
  int max_plies = 120;
  bool progress = false;  // a progress line on stderr
};

struct Report {
  uint64_t games = 0;
  uint64_t positions = 0;  // nodes compared
  double seconds = 0;
  std::optional<Divergence> divergence;
};

// Runs the differential fuzzer. Starts every game from `start` (position text).
Report run(const EngineFactory& left, const EngineFactory& right, const std::string& start, const Options& o);

// Compares one node (no actions applied). Returns a divergence or nullopt.
std::optional<Divergence> compare_node(Engine& a, Engine& b);

// Loads `position` on both engines, plays `action` (canonical text) when not empty, and
// compares the node reached. nullopt when they agree (or the text is not accepted).
std::optional<Divergence> reproduce(Engine& a, Engine& b, const std::string& position, const std::string& action);

std::string status_text(const Status& s);

// Shrinks a divergence at a FEN position: removes pieces one at a time while the two
// engines still disagree on that node.
Divergence shrink(const EngineFactory& left, const EngineFactory& right, Divergence d);

std::string to_json(const Divergence& d);

}  // namespace arb::fuzz
