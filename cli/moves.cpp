// Moves as a person reads them (moves.hpp).
#include "moves.hpp"

#include <sstream>

#include "arbiter/notation.hpp"
#include "common.hpp"

namespace arb::cli {

bool san_notation(const std::string& value) {
  if (value != "san" && value != "uci")
    throw UsageError("--notation must be san or uci, not `" + value + "`");
  return value == "san";
}

std::vector<std::string> line_text(Engine& e, const std::vector<std::string>& line, bool san) {
  if (!san) return line;
  std::vector<std::string> out;
  size_t played = 0;
  for (const auto& m : line) {
    std::optional<Action> a;
    if (out.size() == played) a = parse_action(e, m);
    if (!a) {
      out.push_back(m);
      continue;
    }
    out.push_back(arb::san(e, *a));
    e.apply(*a);
    ++played;
  }
  for (size_t i = 0; i < played; ++i) e.undo();
  return out;
}

std::string line_text(Engine& e, const std::string& line, bool san) {
  std::istringstream in(line);
  std::vector<std::string> moves;
  for (std::string m; in >> m;) moves.push_back(m);
  std::string out;
  for (const auto& m : line_text(e, moves, san)) out += (out.empty() ? "" : " ") + m;
  return out;
}

}  // namespace arb::cli
