// One way to make every engine: the command, the record validator, the solver, the fuzzers
// and the tests ask open_engine() for the engine that plays a ruleset (compiled, its
// hand-written reference, or Fairy-Stockfish) instead of each knowing how each is built.
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
#include "arbiter/lang/compile.hpp"

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

struct OpenedEngine {
  std::unique_ptr<Engine> engine;  // at the spec's first position; null when `diags` has errors
  EngineMaker make;                // more engines of the same game, at the ruleset's start
  lang::Compiled compiled;         // the ruleset as compiled (a reference: its model alone;
                                   // a spec's program: that program, no model)
  std::string variant;             // the ruleset's name (Fairy-Stockfish: the engine's name)
};

// Opens the engine the spec names. A ruleset that does not compile (or load) leaves its
// diagnostics in `diags` and returns no engine; any other unusable input throws OpenError,
// and a first position the engine refuses throws its PositionError.
OpenedEngine open_engine(const EngineSpec& spec, lang::Diagnostics& diags);

// The compiled engines of a program already compiled (a mutant, one ruleset compiled under
// other options): open_engine's maker for EngineSpec::program.
EngineMaker program_engines(std::shared_ptr<const lang::Program> program);

}  // namespace arb::registry
