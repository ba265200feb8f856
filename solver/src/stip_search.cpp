// The machinery every stipulation's search shares: the side flip of series play, the
// status as composers read it, the aim, the node budget and the timeout.
#include "stip_search.hpp"

#include <sstream>
#include <stdexcept>

#include "arbiter/text_fields.hpp"

namespace arb::stip::detail {

std::string flipped(const std::string& text) {
  std::vector<std::string> f = field_strings(text);
  if (f.size() < 2 || (f[1] != "w" && f[1] != "b"))
    throw std::invalid_argument(
        "this stipulation needs the side to move changed without a move, and the position text has no "
        "`w`/`b` side field to change (FEN-shaped texts only)");
  f[1] = f[1] == "w" ? "b" : "w";
  if (f.size() >= 4) f[3] = "-";
  return join_fields(f);
}

void Search::flip() {
  std::string t = flipped(e_->position());
  Color before = e_->side_to_move();
  try {
    e_->set_position(t);
  } catch (const PositionError& x) {
    throw std::invalid_argument(
        "this stipulation changes the side to move without a move (the position text's second field, "
        "FEN-shaped "
        "texts), and the engine refuses the text that makes: " +
        std::string(x.what()));
  }
  if (e_->side_to_move() == before)
    throw std::invalid_argument("the engine kept the side to move of `" + t + "`");
}

// The status of the side to move; insufficient material does not end a line, but a side
// left without a legal action there is mated or stalemated as anywhere else.
Status Search::status() {
  Status st = e_->status();
  if (st.end == Termination::InsufficientMaterial) {
    std::vector<Action> ms;
    e_->legal_actions(ms);
    if (!ms.empty()) return Status{};
    if (st.in_check) {
      st.end = Termination::Checkmate;
      st.result = e_->side_to_move() == Color::White ? arb::Result::BlackWins : arb::Result::WhiteWins;
    } else {
      st.end = Termination::Stalemate;
      st.result = arb::Result::Draw;
    }
  }
  return st;
}
// status() and the legal actions at once (one generation where the engine can).

Status Search::status_and_actions(std::vector<Action>& ms) {
  Status st = e_->status_and_actions(ms);
  if (st.end == Termination::InsufficientMaterial) {
    if (!ms.empty()) return Status{};
    return status();
  }
  return st;
}

// Whether the legal action m (of the side to move) can reach the aim: with
// Options::mate_needs_check, a mate only by a move that gives check.
bool Search::may_reach(const Action& m) {
  if (!o_.mate_needs_check || o_.stip.aim != Aim::Mate) return true;
  return e_->gives_check(m);
}

bool Search::mates_in_one(std::vector<Action>& ms) {
  e_->checking_actions(ms);
  // A position with a check to give has a legal action: only an end condition of the
  // ruleset ends it (insufficient material does not end a line with a legal action).
  if (ms.empty()) return false;
  const Status st = e_->status_when_movable();
  return !over(st) || st.end == Termination::InsufficientMaterial;
}

// Whether `st` (of `victim`, the side to move) is the stipulation's aim against victim.
bool Search::reached(const Status& st, Color victim) const {
  if (o_.stip.aim == Aim::Mate)
    return st.result == (victim == Color::White ? arb::Result::BlackWins : arb::Result::WhiteWins);
  return (st.end == Termination::Stalemate || st.end == Termination::NoLegalMove) && !st.in_check;
}

// Whether the side to move has an action that reaches the aim against its opponent.
bool Search::can_reach_now() {
  std::vector<Action> ms;
  e_->legal_actions(ms);
  const Color v = opposite(e_->side_to_move());
  for (const Action& m : ms) {
    if (!may_reach(m)) continue;
    play(m);
    bool r = reached(status(), v);
    unplay();
    if (r) return true;
  }
  return false;
}

void Search::tick() {
  uint64_t total = nodes_;
  if (team_) {
    total = team_->nodes.fetch_add(4096, std::memory_order_relaxed) + 4096;
    if (team_->halt.load(std::memory_order_relaxed)) throw Stop{};
    if (done_ && done_->load(std::memory_order_relaxed)) throw Abandon{};
  }
  if (o_.max_nodes && total >= o_.max_nodes) {
    why_ = "node budget (" + std::to_string(o_.max_nodes) + " actions) spent";
    throw Stop{};
  }
  double s = seconds();
  if (o_.timeout > 0 && s >= o_.timeout) {
    why_ = "timeout after " + std::to_string(o_.timeout) + " s";
    throw Stop{};
  }
  if (o_.progress && s >= next_progress_) {
    next_progress_ = s + 0.25;
    o_.progress(total, s);
  }
}

}  // namespace arb::stip::detail
