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

// Where the bundled rulesets are: $ARBITER_RULESETS, else the source tree's rulesets/, else
// rulesets/ beside the running binary (a fuzzing service's runner).
std::filesystem::path rulesets_dir();

// Every bundled ruleset, sorted by name.
std::vector<Variant> bundled();
// The bundled variant NAME, or nullptr.
std::optional<Variant> find(const std::string& name);
// "chess chessembly ..." for messages.
std::string names();

// The reference engine of a variant with its options, or nullptr when it has none.
// Throws std::invalid_argument for an option it does not have or a bad value.
std::unique_ptr<Engine> make_reference(const std::string& variant,
                                       const std::map<std::string, std::string>& options = {});

// The variant whose reference engine plays a ruleset: its own name, else, for a grid
// ruleset, the nearest ruleset it extends that has one (`chessme-hand4` extends `chessme`,
// played with reference_options); "" when none. A bounded child (atomic) has none.
std::string reference_variant(const lang::Model& model);

// The reference options a ruleset implies beyond its name. A grid ruleset's pile,
// hand size and start draw (arbiter/chessme_text.hpp TileRules) as `tiles=QRRBBNNPPPP`,
// `hand-size=N`, `draw=N`, each only when it differs from ChessMe's default: the ChessMe
// reference takes these options (and refuses any option where it does not yet).
std::map<std::string, std::string> reference_options(const lang::Model& model);

// Compiles a ruleset file (diagnostics in `diags`; never throws: an unexpected exception
// becomes a diagnostic naming the file).
lang::Compiled compile(const std::string& path, const std::map<std::string, std::string>& options,
                       lang::Diagnostics& diags);

}  // namespace arb::registry
