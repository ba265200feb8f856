// Moves as a person reads them: a line of actions (UCI, as the solvers and puzzle files
// store them) rewritten in SAN from a position, and the --notation option's values.
#pragma once

#include <string>
#include <vector>

#include "arbiter/engine.hpp"

namespace arb::cli {

// `--notation`: true for san, false for uci; anything else a UsageError naming the values.
bool san_notation(const std::string& value);

// The actions of `line`, played in turn from the engine's position, in SAN (`san`) or as
// written. An action that does not read in that position (a chance outcome, a stale line)
// stays as written, and so does the rest of the line after it. The engine is back at its
// position afterwards.
std::vector<std::string> line_text(Engine& e, const std::vector<std::string>& line, bool san);

// The same for a space-separated line (a puzzle file's solution column).
std::string line_text(Engine& e, const std::string& line, bool san);

}  // namespace arb::cli
