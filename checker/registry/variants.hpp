// The registry's questions about a compiled ruleset (its model, its program): for the
// command, the tests and the tools built on the compiler (mutate, the property plan). A
// consumer that only plays a ruleset (records, solver, checker) includes catalogue.hpp and
// open.hpp instead and never sees a lang/ header.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "arbiter/lang/compile.hpp"
#include "registry/catalogue.hpp"

namespace arb::registry {

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
