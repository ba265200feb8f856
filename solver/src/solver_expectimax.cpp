// The forced-win solver's chance handling (the Worker's; solver.cpp has the overview): a
// draw the position does not fix, and the expected value under Chance::Expected.
#include <algorithm>
#include <cmath>
#include <vector>

#include "solver_worker.hpp"

namespace arb::solve::detail {

V Worker::chance_unfixed() {
  if (!sh_.unfixed.exchange(true)) {
    std::lock_guard<std::mutex> lock(sh_.m);
    sh_.why = "the position does not fix the draw (chance node at `" + e_->position() +
              "`; use --chance adversarial or expected)";
  }
  return kUnk;
}

// A chance node after the prover's last move: whether the draw itself ends the game in
// the goal. Decided positions are not chance nodes, so this is a rare case; a draw that
// leads to another draw counts as not ending the game.
V Worker::horizon_chance() {
  std::vector<ChanceOutcome> outs;
  e_->chance_outcomes(outs);
  size_t met = 0;
  for (const auto& o : outs) {
    apply(o.action);
    if (!e_->chance() && goal_met(e_->status())) ++met;
    e_->undo();
  }
  if (met == outs.size() && met > 0) return kYes;
  if (met == 0 || sh_.opt.chance == Chance::Adversarial) return kNo;
  return chance_unfixed();
}

double Worker::horizon_expect() {
  std::vector<ChanceOutcome> outs;
  e_->chance_outcomes(outs);
  double p = 0;
  for (const auto& o : outs) {
    apply(o.action);
    if (!e_->chance() && goal_met(e_->status())) p += o.weight;
    e_->undo();
  }
  return p;
}

// The action expect() chose at the current (non-chance) position with r prover moves
// left: an index into legal_actions, or kNoMove when it has not valued the position.
size_t Worker::expect_choice(int r) const {
  auto it = choice_.find(e_->hash() * 0x9E3779B97F4A7C15ULL + static_cast<uint64_t>(r));
  return it == choice_.end() ? kNoMove : it->second;
}

// Expectimax (Chance::Expected): the probability of reaching the goal within r prover
// moves, prover maximising, defender minimising, chance weighted.
double Worker::expect(int r, int ply) {
  if (halted()) return 0;
  if (e_->chance()) {
    if (r == 0) return horizon_expect();
    uint64_t ckey = e_->hash() * 0x9E3779B97F4A7C15ULL + static_cast<uint64_t>(r) + 0x5bd1e995ULL;
    auto hit = memo_.find(ckey);
    if (hit != memo_.end()) return hit->second;
    std::vector<ChanceOutcome> outs;
    e_->chance_outcomes(outs);
    double p = 0;
    for (const auto& o : outs) {
      apply(o.action);
      p += o.weight * expect(r, ply + 1);
      e_->undo();
    }
    if (!halted()) memo_[ckey] = p;
    return p;
  }
  Status st = e_->status();
  if (st.result != arb::Result::Ongoing) return goal_met(st) ? 1.0 : 0.0;
  if (r == 0) return 0;
  // With one prover move left, a hand drawn now for a later turn is never looked at
  // within the horizon: it may stay hidden (ChanceControl::set_deferred_draws), which spares a
  // chance node over every hand (No Stress Chess: 462 after a redraw) below this node.
  defer_draws(*e_, r == 1);
  uint64_t key = e_->hash() * 0x9E3779B97F4A7C15ULL + static_cast<uint64_t>(r);
  auto it = memo_.find(key);
  if (it != memo_.end()) return it->second;
  std::vector<Action> ms;
  e_->legal_actions(ms);
  bool mine = e_->side_to_move() == sh_.prover;
  if (r >= 2 || !mine) {
    // An action that ends the game settles the node before any subtree is searched: the
    // prover's win is worth 1, the defender's escape to a lost or drawn end 0 (a redraw
    // or a pass tried first would otherwise cost a whole chance subtree).
    for (size_t i = 0; i < ms.size(); ++i) {
      apply(ms[i]);
      Status end = e_->chance() ? Status{} : e_->status();
      e_->undo();
      if (end.result == arb::Result::Ongoing || goal_met(end) != mine) continue;
      if (!halted()) {
        memo_[key] = mine ? 1.0 : 0.0;
        choice_[key] = static_cast<uint32_t>(i);
      }
      return mine ? 1.0 : 0.0;
    }
  }
  double best = mine ? 0.0 : 1.0;
  uint32_t pick = 0;
  for (size_t i = 0; i < ms.size(); ++i) {
    apply(ms[i]);
    double p = expect(mine ? r - 1 : r, ply + 1);
    e_->undo();
    if (i == 0 || (mine ? p > best : p < best)) {
      best = p;
      pick = static_cast<uint32_t>(i);
    }
    if (mine ? best >= 1.0 : best <= 0.0) break;
  }
  if (ms.empty()) best = 0;
  if (!halted()) {
    memo_[key] = best;
    choice_[key] = pick;
  }
  return best;
}

}  // namespace arb::solve::detail
