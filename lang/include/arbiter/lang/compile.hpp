// Stage 4: the compiler. A checked model becomes a Program (program.hpp): flat data and,
// for bounded boards, per-square tables (bitboard.hpp) that the back ends run without
// looking at the rules text or the model again. A construct the chosen back end cannot
// execute yet is a compile error naming the file, line and feature.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "arbiter/engine.hpp"
#include "arbiter/lang/diagnostics.hpp"
#include "arbiter/lang/model.hpp"
#include "arbiter/lang/program.hpp"

namespace arb::lang {

// Compiles a checked model. Returns nullptr and reports at the construct's location when
// the model uses a feature the generator cannot execute yet.
std::shared_ptr<const Program> compile(const Model& m, Diagnostics& diags);

// The compiled generator: an Engine running a Program.
std::unique_ptr<Engine> make_compiled_engine(std::shared_ptr<const Program> program);

// Checks that the generator accepts the program's start, reporting a refusal at the
// setup's place in the ruleset (link.cpp). The compiler itself never runs a generator.
bool check_start(const Model& m, const std::shared_ptr<const Program>& p, Diagnostics& diags);

// Loads, checks, compiles and links a ruleset file in one call (diagnostics in `diags`).
struct Compiled {
  std::vector<std::unique_ptr<Source>> sources;
  std::unique_ptr<Model> model;
  std::shared_ptr<const Program> program;
};
Compiled compile_file(const std::string& path, const std::map<std::string, std::string>& overrides,
                      Diagnostics& diags);

// Checks the expectations of a compiled ruleset without running them: each position loads,
// each status word is one the ruleset can report, each action text reads as an action.
// compile_file calls it after check_start (an unusable expectation is a located error).
bool check_expectations(const Model& m, const std::shared_ptr<const Program>& p, Diagnostics& diags);

// `arbiter check`: a `when` block the options skip is read only for its condition, so the
// ruleset is compiled again under every setting that reads other blocks, one tested
// option changed at a time from a setting already checked (`overrides` stay fixed), at
// most `max_settings` settings in all. Errors not already in `diags` are added to it, each
// with the `--set` that shows it; their sources go to `keep`. Returns the settings checked.
std::vector<std::map<std::string, std::string>> check_every_setting(
    const std::string& path, const std::map<std::string, std::string>& overrides, Diagnostics& diags,
    std::vector<std::unique_ptr<Source>>& keep, size_t max_settings = 64);

}  // namespace arb::lang
