// The goals of a proof game (their text and parsing) and the replay of a found line (see
// proofgame.hpp). proofgame.cpp holds the search, goal_rules.cpp the rules under which the
// search's filters hold.
#include <algorithm>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "arbiter/notation.hpp"
#include "arbiter/proofgame.hpp"

namespace arb::proofgame {

std::string Goal::text() const {
  switch (kind) {
    case Kind::Mate:
      return "mate";
    case Kind::Stalemate:
      return "stalemate";
    case Kind::Draw:
      return "draw";
    case Kind::Win:
      return "win";
    case Kind::NoLegalMove:
      return "no-legal-move";
    case Kind::Reason:
      return "reason:" + reason;
  }
  return "";
}

Goal parse_goal(const std::string& text, const std::string& side) {
  Goal g;
  if (text == "mate")
    g.kind = Goal::Kind::Mate;
  else if (text == "stalemate")
    g.kind = Goal::Kind::Stalemate;
  else if (text == "draw")
    g.kind = Goal::Kind::Draw;
  else if (text == "win")
    g.kind = Goal::Kind::Win;
  else if (text == "no-legal-move")
    g.kind = Goal::Kind::NoLegalMove;
  else if (text.rfind("reason:", 0) == 0 && text.size() > 7) {
    g.kind = Goal::Kind::Reason;
    g.reason = text.substr(7);
  } else {
    throw std::invalid_argument(
        "--goal must be mate, stalemate, draw, win, no-legal-move or reason:NAME, not `" + text + "`");
  }
  if (side == "w")
    g.winner = Color::White;
  else if (side == "b")
    g.winner = Color::Black;
  else if (!side.empty())
    throw std::invalid_argument("--side must be `w` or `b`, not `" + side + "`");
  if (g.winner &&
      (g.kind == Goal::Kind::Stalemate || g.kind == Goal::Kind::Draw || g.kind == Goal::Kind::NoLegalMove))
    throw std::invalid_argument("--side names the winner: it goes with mate, win or reason:NAME, not with " +
                                g.text());
  return g;
}

bool no_move_draw(Engine& e) {
  if (e.chance()) return false;
  std::vector<Action> acts;
  e.legal_actions(acts);
  return acts.empty() && !e.status().in_check;
}

std::string replay(Engine& e, const std::string& start, const std::vector<std::string>& line,
                   const Goal& goal) {
  try {
    e.set_position(start);
  } catch (const PositionError& err) {
    return std::string("the start does not read: ") + err.what();
  }
  for (size_t i = 0; i < line.size(); ++i) {
    if (Status st = e.status(); st.result != arb::Result::Ongoing)
      return "the game has ended after ply " + std::to_string(i) + " (" + st.reason + ")";
    std::optional<Action> a = parse_action(e, line[i]);
    if (!a) return "ply " + std::to_string(i + 1) + " `" + line[i] + "` is not legal on " + e.name();
    e.apply(*a);
  }
  if (!reached(e, goal))
    return "the last position does not meet the goal `" + goal.text() + "` on " + e.name();
  return "";
}

}  // namespace arb::proofgame
