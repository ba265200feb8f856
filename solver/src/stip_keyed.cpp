// Keyed play (direct, self, reflex): AND/OR proofs over (position, attacker moves left).
#include "stip_search.hpp"

namespace arb::stip::detail {

// ---- keyed play (direct, self, reflex) ----------------------------------------------
// Whether the move just played (by the attacker) achieves the stipulation within r
// attacker moves counted from it.
bool Search::after_attack(int r) {
  switch (o_.stip.play) {
    case Play::Direct:
      return defend(r);
    case Play::Self:
      return self_defend(r);
    case Play::Reflex:
      return reflex_defend(r);
    case Play::Help:
      break;
  }
  return false;
}

// The keyed nodes. Each is monotone in r (what holds within r holds within more), so
// the table keeps per position the smallest r proved true and the largest proved false.
// The table is probed before the node's moves are generated; the refutation that ended
// a defender's node last time at this r (and the attacker's move that worked) is tried
// first.

// Direct, after the attacker's move, the defender to move: whether the attack succeeds
// within r attacker moves counted from the move just played.
bool Search::defend(int r) {
  if (r == 1) {
    // Only whether the move mated: the status alone (no list of the replies), cheaper
    // than a table entry (a cache miss, and one slot fewer for the nodes worth keeping).
    return reached(status(), e_->side_to_move());
  }
  const uint64_t key = mix(e_->hash(), 0, 1);
  bool v;
  if (probe(key, r, v)) return v;
  std::vector<Action> ms;
  const Status st = status_and_actions(ms);
  if (reached(st, e_->side_to_move())) return save(key, 1, true);
  if (over(st)) return save(key, kMaxMoves, false);
  if (r > 2) {
    // Checks first: a defence that checks costs the attacker a move.
    std::stable_partition(ms.begin(), ms.end(), [&](const Action& m) { return e_->gives_check(m); });
  }
  first(ms, refute_[r]);
  spread(ms);
  for (const Action& m : ms) {
    play(m);
    const bool held = attack(r - 1);
    unplay();
    if (!held) {
      remember(refute_[r], m);
      return save(key, r, false);
    }
  }
  return save(key, r, true);
}
bool Search::attack(int r) {  // the attacker to move (direct, self, reflex)
  const uint64_t key = mix(e_->hash(), 0, 2 + static_cast<int>(o_.stip.play));
  bool v;
  if (probe(key, r, v)) return v;
  std::vector<Action> ms;
  const bool last = o_.stip.play == Play::Direct && r == 1;
  if (last && checks_only()) {
    // A mate in one: the checking moves alone (no full list, no check test per move).
    if (!mates_in_one(ms)) return save(key, 1, false);
    first(ms, kill_[1]);
    for (const Action& m : ms) {
      play(m);
      const bool ok = reached(status(), e_->side_to_move());
      unplay();
      if (ok) {
        remember(kill_[1], m);
        return save(key, 1, true);
      }
    }
    return save(key, 1, false);
  }
  if (over(status_and_actions(ms))) return save(key, kMaxMoves, false);
  // Reflex: an attacker that can reach the aim at once must, and reaches nothing else.
  if (o_.stip.play == Play::Reflex && can_reach_now()) return save(key, kMaxMoves, false);
  if (!last) {
    // Checks before quiet moves: they leave the defender fewest replies.
    std::stable_partition(ms.begin(), ms.end(), [&](const Action& m) { return e_->gives_check(m); });
  }
  first(ms, kill_[r]);
  for (const Action& m : ms) {
    if (last && !may_reach(m)) continue;  // a mate in one gives check
    play(m);
    const bool ok = after_attack(r);
    unplay();
    if (ok) {
      remember(kill_[r], m);
      return save(key, r, true);
    }
  }
  return save(key, r, false);
}
// Self, after the attacker's move, the defender to move: whether every defence mates
// the attacker or leaves it a selfmate within r - 1.
bool Search::self_defend(int r) {
  const uint64_t key = mix(e_->hash(), 0, 7);
  bool v;
  if (probe(key, r, v)) return v;
  std::vector<Action> ms;
  if (over(status_and_actions(ms))) return save(key, kMaxMoves, false);
  const Color a = opposite(e_->side_to_move());
  first(ms, refute_[r]);
  spread(ms);
  for (const Action& m : ms) {
    if (r == 1 && !may_reach(m)) return save(key, 1, false);  // a defence without check: no mate
    play(m);
    const Status st = status();
    const bool held = reached(st, a) || (r > 1 && !over(st) && attack(r - 1));
    unplay();
    if (!held) {
      remember(refute_[r], m);
      return save(key, r, false);
    }
  }
  return save(key, r, true);
}
bool Search::reflex_defend(int r) {
  const uint64_t key = mix(e_->hash(), 0, 8);
  bool v;
  if (probe(key, r, v)) return v;
  std::vector<Action> ms;
  if (over(status_and_actions(ms))) return save(key, kMaxMoves, false);
  if (can_reach_now()) return save(key, 1, true);  // the defender must mate
  if (r == 1) return save(key, 1, false);
  first(ms, refute_[r]);
  spread(ms);
  for (const Action& m : ms) {
    play(m);
    const bool held = attack(r - 1);
    unplay();
    if (!held) {
      remember(refute_[r], m);
      return save(key, r, false);
    }
  }
  return save(key, r, true);
}

}  // namespace arb::stip::detail
