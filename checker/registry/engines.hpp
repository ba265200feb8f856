// open_engine(): open.hpp's open() that also hands out the compiled ruleset (its model and
// program), for the command, the tests and the tools built on the compiler (mutate, the
// property plan). They link arbiter_lang themselves.
#pragma once

#include <memory>
#include <string>

#include "arbiter/lang/compile.hpp"
#include "registry/open.hpp"

namespace arb::registry {

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
