#include "arbiter/engine.hpp"

namespace arb {

std::string to_string(Result r) {
  switch (r) {
    case Result::Ongoing:
      return "*";
    case Result::WhiteWins:
      return "1-0";
    case Result::BlackWins:
      return "0-1";
    case Result::Draw:
      return "1/2-1/2";
  }
  return "*";
}

std::string GameConfig::value(const std::string& name) const {
  for (const auto& [k, v] : options)
    if (k == name) return v;
  return "";
}

uint64_t Engine::perft(int depth) {
  if (depth <= 0) return 1;
  if (chance())
    throw ChanceError("perft met a chance node (" + position() +
                      "): the position does not fix what is drawn next");
  std::vector<Action> actions;
  legal_actions(actions);
  if (depth == 1) return actions.size();
  uint64_t n = 0;
  for (const Action& a : actions) {
    apply(a);
    n += perft(depth - 1);
    undo();
  }
  return n;
}

}  // namespace arb
