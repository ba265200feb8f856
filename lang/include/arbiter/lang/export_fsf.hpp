// A ruleset as a Fairy-Stockfish variant: one `variants.ini` section (pieces by their
// predefined Fairy-Stockfish types or in Betza, the flags the rules need), or a located
// error naming each statement Fairy-Stockfish cannot express. Reads the checked model only:
// it shares nothing with the move generator.
#pragma once

#include <optional>
#include <string>

#include "arbiter/lang/diagnostics.hpp"
#include "arbiter/lang/model.hpp"

namespace arb::lang {

// Which Fairy-Stockfish reads the section.
enum class FsfDialect {
  Current,  // current Fairy-Stockfish (the npm fairy-stockfish-nnue.wasm build): custom
            // pieces in Betza (`customPieceN`, `king = k:BETZA`), regions (`*2`)
  Fsf11,    // Debian's fairy-stockfish 11.1: predefined piece types only, a king moving
            // otherwise through `kingType`, ranks (`promotionRank`)
};

// "current" / "11" and back; nullopt for another word.
std::optional<FsfDialect> fsf_dialect(const std::string& word);
const char* to_string(FsfDialect d);

// The section `[section]` for the model, or nullopt with every statement it cannot
// express reported in `diags` at its file:line:col.
std::optional<std::string> export_fsf(const Model& m, FsfDialect dialect, const std::string& section,
                                      Diagnostics& diags);

}  // namespace arb::lang
