// One way to make every engine: the command, the record validator, the solver, the fuzzers
// and the tests ask the registry for the engine that plays a ruleset (compiled, its
// hand-written reference, or Fairy-Stockfish) instead of each knowing how each is built.
// This header needs no lang/ header: a consumer that only plays a ruleset (the record
// validator, the solver, the checker) opens it with open() and reads what the ruleset
// states from RulesetFacts. engines.hpp adds open_engine(), which hands out the compiled
// ruleset itself (its model and program) to the command, the tests and the tools built on
// the compiler.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "arbiter/engine.hpp"

namespace arb::lang {
struct Program;  // arbiter/lang/program.hpp: only the tools built on the compiler hold one
}  // namespace arb::lang

namespace arb::registry {

enum class EngineKind : uint8_t {
  Compiled,        // the ruleset compiled into a move generator (lang/)
  Reference,       // the hand-written reference engine that plays it (reference_of)
  FairyStockfish,  // Debian's fairy-stockfish over UCI (checker/fsf/)
};
// "compiled", "reference", "fairy-stockfish" and back; nullopt for another word.
std::optional<EngineKind> engine_kind(const std::string& word);
const char* to_string(EngineKind k);

// What to open. A ruleset file (`rules`), or for the compiled kind a program already
// compiled (`program`: a mutant), and the options the ruleset's `option` statements take
// (`--set NAME=VALUE`).
struct EngineSpec {
  EngineKind kind = EngineKind::Compiled;
  std::filesystem::path rules;
  std::shared_ptr<const lang::Program> program;  // the compiled kind: used instead of `rules`
  std::map<std::string, std::string> options;
  // Fairy-Stockfish: the UCI_Variant it plays and an optional VariantPath ini file.
  std::string fsf_variant, fsf_variant_path;
  // Fairy-Stockfish: which engine (fsf::engine_command: "" Debian's, `wasm:DIR` the npm
  // build of current Fairy-Stockfish, or a command line).
  std::string fsf_engine;
  // The first position: a position text, or a start seed (`start:SEED`; a ruleset whose
  // start is a dice-picked Chess960 rank gets the rank its dice procedure picks from the
  // seed, each engine running its own procedure). Neither: the ruleset's start.
  std::string position;
  std::optional<uint64_t> seed;
};

// Unusable input in a spec: a bad option value, an engine that is missing or refuses the
// variant, a ruleset no engine of that kind plays, a position the engine refuses. The
// message says what and how to fix it.
struct OpenError : std::invalid_argument {
  explicit OpenError(const std::string& what, bool option = false)
      : std::invalid_argument(what), bad_option(option) {}
  bool bad_option;  // an option the engine does not take, or a value it refuses
};

// Makes another engine of the same game, at its start (each fuzz job, each shrinking step).
using EngineMaker = std::function<std::unique_ptr<Engine>()>;

// What a ruleset states that a consumer reads besides playing it (the record validator's
// explanations): read from its checked model.
struct RulesetFacts {
  bool placement_p = false;                 // placements written `pKe1` (`placement-notation piece-first`)
  bool agreement_draws = true;              // a draw may be agreed (`agreement-draws`)
  bool dice_start = false;                  // `setup chess960`: a seed picks the start by the dice procedure
  std::map<char, std::string> piece_names;  // letter -> the ruleset's piece name
  std::string royals;                       // letters of the royal pieces
  bool royals_apart = false;                // `royals-apart`
  bool adjacency_rule = false;              // a non-capturing move must end next to a piece
};

struct Opened {
  std::unique_ptr<Engine> engine;     // at the spec's first position; null when the ruleset has errors
  EngineMaker make;                   // more engines of the same game, at the ruleset's start
  std::string variant;                // the ruleset's name (Fairy-Stockfish: the engine's name)
  std::optional<RulesetFacts> facts;  // nullopt when the ruleset's model did not load
  int errors = 0;                     // the ruleset's errors (file:line:col in `diagnostics`)
  std::string diagnostics;            // every diagnostic, rendered
};

// open_engine() without the compiled ruleset: the engine the spec names and the facts of
// its ruleset. Throws as open_engine does (OpenError, PositionError).
Opened open(const EngineSpec& spec);

}  // namespace arb::registry
