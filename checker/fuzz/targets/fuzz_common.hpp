// Shared pieces of Arbiter's libFuzzer targets: where the bundled rulesets are, the
// engines every target builds once per process (never per input), and the read-back
// check every position text must pass.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "arbiter/engine.hpp"
#include "arbiter/lang/compile.hpp"
#include "reference.hpp"
#include "registry/engines.hpp"
#include "registry/variants.hpp"

namespace arb::fuzz_targets {

// Where the bundled rulesets are: the registry's answer ($ARBITER_RULESETS, the source
// tree, or rulesets/ beside the binary, which a fuzzing service's build script copies).
inline std::filesystem::path rulesets_dir() {
  return registry::rulesets_dir();
}

// The compiled program of a bundled variant (aborts when it does not compile: the target
// would test nothing).
// An engine of a bundled variant, opened as every engine is (registry::open_engine): the
// compiled generator or the reference. Aborts when it cannot (a broken installation).
inline std::unique_ptr<Engine> bundled_engine(const std::string& variant,
                                              registry::EngineKind kind = registry::EngineKind::Compiled) {
  auto v = registry::find(variant);
  if (!v) {
    std::fprintf(stderr, "fuzz target: no bundled variant %s in %s\n", variant.c_str(),
                 rulesets_dir().c_str());
    std::abort();
  }
  registry::EngineSpec spec;
  spec.kind = kind;
  spec.rules = v->ruleset;
  lang::Diagnostics diags;
  std::unique_ptr<Engine> e;
  try {
    e = registry::open_engine(spec, diags).engine;
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "fuzz target: %s: %s\n", v->ruleset.c_str(), ex.what());
    std::abort();
  }
  if (!e) {
    std::fprintf(stderr, "fuzz target: %s does not compile\n%s", v->ruleset.c_str(), diags.render().c_str());
    std::abort();
  }
  return e;
}

[[noreturn]] inline void finding(const std::string& what) {
  std::fprintf(stderr, "FINDING: %s\n", what.c_str());
  std::abort();
}

// Loads `text`; when the engine accepts it, its own text must read back to the same text
// (every position text the tool prints, it reads). Returns whether `text` was accepted.
inline bool load_and_read_back(Engine& e, Engine& probe, const std::string& text) {
  try {
    e.set_position(text);
  } catch (const PositionError&) {
    return false;
  }
  std::string printed = e.position();
  try {
    probe.set_position(printed);
  } catch (const PositionError& err) {
    finding(e.name() + " refuses the text it printed: `" + printed + "` (" + err.what() + ", column " +
            std::to_string(err.column) + "), read from `" + text + "`");
  }
  if (probe.position() != printed)
    finding(e.name() + " reads back `" + printed + "` as `" + probe.position() + "`");
  return true;
}

}  // namespace arb::fuzz_targets
