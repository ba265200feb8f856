// The one registry of variants: which bundled rulesets there are, where they live, what
// engines play each, and the few facts about a variant's texts that are not in its rules
// (its own placement notation). The command, the tests, the fuzz targets, the solver and
// the record validator all ask here instead of keeping lists of their own.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arbiter/engine.hpp"
#include "arbiter/lang/compile.hpp"

namespace arb::registry {

struct Variant {
  std::string name;               // rulesets/NAME.rules
  std::filesystem::path ruleset;  // its path
  bool reference = false;         // a hand-written reference engine plays it
  bool placement_p = false;       // SAN placements in the rule text's own form `pKe1` (Chessembly)
};

// Where the bundled rulesets are: the first folder of the ruleset search path
// (lang/search_path.hpp: $ARBITER_RULESETS, the installed ones, the source tree's) holding
// them, else rulesets/ beside the running binary (a fuzzing service's runner).
std::filesystem::path rulesets_dir();

// Every ruleset along the search path (a designer's folder in $ARBITER_RULESETS included;
// the first of a name wins), sorted by name.
std::vector<Variant> bundled();
// The bundled variant NAME, or nullptr.
std::optional<Variant> find(const std::string& name);
// "chess chessembly ..." for messages.
std::string names();

// The reference engine of a variant with its options, or nullptr when it has none.
// Throws std::invalid_argument for an option it does not have or a bad value.
std::unique_ptr<Engine> make_reference(const std::string& variant,
                                       const std::map<std::string, std::string>& options = {});

// Compiles a ruleset file (diagnostics in `diags`; never throws: an unexpected exception
// becomes a diagnostic naming the file).
lang::Compiled compile(const std::string& path, const std::map<std::string, std::string>& options,
                       lang::Diagnostics& diags);

}  // namespace arb::registry
