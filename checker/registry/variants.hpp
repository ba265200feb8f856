// The one registry of variants: which bundled rulesets there are, where they live, what
// engines play each, and what each ruleset's `records { ... }` block states about its game
// records (the names a [Variant] tag uses, the placement notation, agreement draws, tags). The command, the
// tests, the fuzz targets, the solver and the record validator all ask here instead of keeping lists of their
// own.
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
  bool placement_p = false;       // SAN placements `pKe1` (`placement-notation piece-first`)
  bool dice_start = false;        // `setup chess960`: a seed picks the start by the dice procedure
  lang::RecordFacts records;      // the ruleset's `records` block (defaults when it has none)
};

// The bundled variants by the role a caller needs them in (the fuzz targets, the defaults):
// the one place outside the rulesets that names them.
inline constexpr const char* kStandard = "chess";      // the FIDE game, the default variant
inline constexpr const char* kReserve = "chessembly";  // placements from a reserve
inline constexpr const char* kGrid = "chessme";        // the unbounded grid and its text

// The variant commands use when none is named.
std::string default_variant();

// What a ruleset file states for records, read once per path (thread-safe); nullopt when
// it does not load.
std::optional<Variant> facts_of(const std::filesystem::path& ruleset);

// The bundled variant a record's [Variant] tag names: the ruleset's own name or one of its
// `records { name ... }` (case-insensitive, spaces trimmed); an empty tag is the default.
// `dir`: the folder of the bundled rulesets (rulesets_dir() when empty).
std::optional<Variant> by_record_name(const std::string& tag, const std::filesystem::path& dir = {});

// Where the bundled rulesets are: $ARBITER_RULESETS, else the source tree's rulesets/, else
// rulesets/ beside the running binary (a fuzzing service's runner).
std::filesystem::path rulesets_dir();

// Every bundled ruleset, sorted by name.
std::vector<Variant> bundled();
// The rulesets of another folder, as bundled() reads its own.
std::vector<Variant> bundled_in(const std::filesystem::path& dir);
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
