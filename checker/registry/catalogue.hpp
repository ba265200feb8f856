// The one registry of variants, the part a consumer reads without any lang/ header: which
// bundled rulesets there are, where they live, which reference engine plays each, and what
// each ruleset's `records { ... }` block states about its game records (the names a
// [Variant] tag uses, the placement notation, agreement draws, tags). The command, the
// tests, the fuzz targets, the solver and the record validator all ask here instead of
// keeping lists of their own; variants.hpp adds the questions about a compiled ruleset.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "arbiter/engine.hpp"

namespace arb::registry {

// What a ruleset's `records { ... }` block states (lang/ reads it into the model; this is
// the copy consumers read, without the model): how its game records are read.
struct RecordTagMap {
  std::string tag;     // the PGN tag name, e.g. WhiteArmy
  std::string target;  // an option name, `seed` (start:N) or `dice-seed` (Chess960 dice start)
  std::vector<std::pair<std::string, std::string>> values;  // tag text -> option value
};
struct RecordFacts {
  std::vector<std::string> names;  // [Variant] tag values naming it (its own, not inherited)
  bool piece_first = false;        // placements written `pKe1` instead of `K@e1`
  bool agreement_draws = true;     // a record may end in an agreed draw
  std::vector<RecordTagMap> tags;
};

struct Variant {
  std::string name;               // rulesets/NAME.rules
  std::filesystem::path ruleset;  // its path
  bool reference = false;         // a hand-written reference engine plays it
  bool placement_p = false;       // SAN placements `pKe1` (`placement-notation piece-first`)
  bool dice_start = false;        // `setup chess960`: a seed picks the start by the dice procedure
  RecordFacts records;            // the ruleset's `records` block (defaults when it has none)
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

// Where the bundled rulesets are: the first folder of the ruleset search path
// (lang/search_path.hpp: $ARBITER_RULESETS, the installed ones, the source tree's) holding
// them, else rulesets/ beside the running binary (a fuzzing service's runner).
std::filesystem::path rulesets_dir();
// The ruleset search path itself (lang/search_path.hpp), folder by folder.
std::vector<std::filesystem::path> ruleset_search_path();
// The Chess960 number of the start the rule text's dice procedure builds from `seed` (what
// a compiled ruleset with `setup chess960` plays from `start:SEED`).
int chess960_dice_start(uint64_t seed);

// Every ruleset along the search path (a designer's folder in $ARBITER_RULESETS included;
// the first of a name wins), sorted by name.
std::vector<Variant> bundled();
// The rulesets of another folder, as bundled() reads its own.
std::vector<Variant> bundled_in(const std::filesystem::path& dir);
// The bundled variant NAME, or nullptr.
std::optional<Variant> find(const std::string& name);
// "chess chessembly ..." for messages.
std::string names();

// A variant whose reference engine builds its start by a dice procedure from a seed (Chess
// 2: README, "The dice start"): the Chess960 number of the start the reference builds from
// `seed`; nullopt for every other variant.
std::optional<int> reference_dice_start(const std::string& variant, uint64_t seed);

// The reference engine of a variant with its options, or nullptr when it has none.
// Throws std::invalid_argument for an option it does not have or a bad value.
std::unique_ptr<Engine> make_reference(const std::string& variant,
                                       const std::map<std::string, std::string>& options = {});

}  // namespace arb::registry
