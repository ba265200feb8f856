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

// Where the bundled rulesets are: the first folder of the ruleset search path
// (lang/search_path.hpp: $ARBITER_RULESETS, the installed ones, the source tree's) holding
// them, else rulesets/ beside the running binary (a fuzzing service's runner).
std::filesystem::path rulesets_dir();

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

// The reference of a compiled ruleset: the variant whose reference engine plays it and the
// options to give that engine. A ruleset with a reference of its own name gets it with
// `options`. A card ruleset descending from No Stress Chess (its lineage) gets that
// reference with the level, seed and setup its compiled options say, plus the deck and the
// hand it states where they differ from No Stress Chess's at that level: `deck=P12N8B8R8Q8K6`
// (each kind's letter then its count, kinds in P N B R Q K A order, zero counts left out) and
// `hand-size=N`. nullopt when no reference engine plays the ruleset.
struct ReferenceOf {
  std::string variant;
  std::map<std::string, std::string> options;
};
std::optional<ReferenceOf> reference_of(const lang::Compiled& c,
                                        const std::map<std::string, std::string>& options);
// make_reference(reference_of(c, options)), or nullptr. Throws std::invalid_argument as
// make_reference does (a reference engine that does not take the deck or hand options).
std::unique_ptr<Engine> make_reference(const lang::Compiled& c,
                                       const std::map<std::string, std::string>& options);
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
