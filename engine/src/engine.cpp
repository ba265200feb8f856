#include "arbiter/engine.hpp"

#include <algorithm>

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

const char* to_string(Termination t) {
  switch (t) {
    case Termination::None:
      return "none";
    case Termination::Checkmate:
      return "checkmate";
    case Termination::Stalemate:
      return "stalemate";
    case Termination::NoLegalMove:
      return "no-legal-move";
    case Termination::RoyalCapture:
      return "royal-capture";
    case Termination::RegionReached:
      return "region-reached";
    case Termination::InsufficientMaterial:
      return "insufficient-material";
    case Termination::Extinction:
      return "extinction";
    case Termination::ChecksGiven:
      return "checks";
    case Termination::DoublePass:
      return "double-pass";
    case Termination::RoyalsFacing:
      return "royals-facing";
    case Termination::BoardFull:
      return "board-full";
    case Termination::Passes:
      return "passes";
  }
  return "none";
}

std::string GameConfig::value(const std::string& name) const {
  for (const auto& [k, v] : options)
    if (k == name) return v;
  return "";
}

StepBrief Engine::brief(const Action& a) const {
  ActionInfo info = describe(a);
  StepBrief b;
  b.steps = static_cast<uint8_t>(std::min<size_t>(info.steps.size(), 255));
  if (info.steps.empty()) return b;
  const Step& s = info.steps[0];
  b.kind = s.kind;
  b.piece = s.piece;
  b.from = s.from;
  b.to = s.to;
  b.promotion = s.promotion;
  b.castle = s.castle;
  b.king_to = s.king_to;
  b.card = s.card;
  b.phase = s.phase;
  b.capture = s.capture();
  return b;
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
