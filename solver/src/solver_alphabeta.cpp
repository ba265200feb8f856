// The forced-win solver's depth-limited alpha-beta search (the Worker's; solver.cpp has
// the overview): prover and defender nodes, move ordering by the table, killers and checks.
#include <algorithm>
#include <cmath>
#include <vector>

#include "solver_worker.hpp"

namespace arb::solve::detail {

// Can the prover force the goal within r more of its own moves from here?
V Worker::search(int r, int ply) {
  if (halted()) return kUnk;
  if (e_->chance()) {
    if (r == 0) return horizon_chance();
    if (sh_.opt.chance == Chance::Known) return chance_unfixed();
    std::vector<Action>& outs = buffer(ply);
    e_->legal_actions(outs);
    bool unk = false;
    for (size_t i = 0; i < outs.size(); ++i) {
      apply(moves_[ply][i]);
      V v = search(r, ply + 1);
      e_->undo();
      if (v == kNo) return kNo;
      if (v == kUnk) {
        if (halted()) return kUnk;
        unk = true;
      }
    }
    return unk ? kUnk : kYes;
  }
  if (r == 0) {
    Status st = e_->status();
    return st.result != arb::Result::Ongoing && goal_met(st) ? kYes : kNo;
  }
  // The table first (it holds proofs about the position, terminal or not), then the
  // status and the actions in one listing.
  uint64_t key = e_->hash();
  Entry te;
  bool hit = sh_.table.probe(key, te);
  if (hit) {
    if (te.win && te.win <= r) return kYes;
    if (te.nowin >= r) return kNo;
  }
  std::vector<Action>& ms = buffer(ply);
  Status st = e_->status_and_actions(ms);
  if (st.result != arb::Result::Ongoing) return goal_met(st) ? kYes : kNo;
  if (ms.empty()) return kNo;
  size_t tt_best = hit && te.best < ms.size() ? te.best : kNoMove;
  if (e_->side_to_move() == sh_.prover) return prover(r, ply, key, tt_best);
  return defender(r, ply, key, tt_best);
}

// The prover's moves in the order to try: at r == 1 the table's move first (every move
// is one status() call); deeper, a move that wins at once returns at once, a move that
// ends the game otherwise is dropped, and the rest go checks first, then by the fewest
// replies left to the defender (ties: generation order).
// Returns kYes (and sets `win`) when some move reaches the goal at once.
// The table's move first, then this ply's prover killers (a move that proved against
// one defence often proves against the next: problem solvers' most useful ordering).
int Worker::first_score(size_t i, size_t tt_best, int ply, int score) const {
  if (i == tt_best) return -3;
  const Action& a = moves_[ply][i];
  if (a == pkillers_[ply].k[0]) return -2;
  if (a == pkillers_[ply].k[1]) return -1;
  return score;
}

V Worker::order_prover(int r, int ply, size_t tt_best, size_t& win, int& win_in) {
  std::vector<std::pair<int, uint32_t>>& order = order_[ply];
  order.clear();
  size_t n = moves_[ply].size();
  if (r == 1) {
    for (size_t i = 0; i < n; ++i)
      order.push_back({first_score(i, tt_best, ply, 0), static_cast<uint32_t>(i)});
    std::stable_sort(order.begin(), order.end());
    return kNo;
  }
  int check_bonus = sh_.opt.goal == Goal::Draw ? 0 : 1 << 16;
  for (size_t i = 0; i < n; ++i) {
    apply(moves_[ply][i]);
    int score;
    if (e_->chance()) {
      score = check_bonus / 2;
    } else {
      // The table first (an enhanced transposition cutoff: the move is played anyway): a
      // reply position proved within r-1 proves this node; one refuted within r-1 is a
      // move that cannot prove, and needs no ordering.
      Entry te;
      if (sh_.table.probe(e_->hash(), te)) {
        if (te.win && te.win <= r - 1) {
          e_->undo();
          win = i;
          win_in = te.win + 1;
          return kYes;
        }
        if (te.nowin >= r - 1) {
          e_->undo();
          order.push_back({kRefutedScore, static_cast<uint32_t>(i)});
          continue;
        }
      }
      Status st = e_->status_and_actions(scratch_);
      if (st.result != arb::Result::Ongoing) {
        bool met = goal_met(st);
        e_->undo();
        if (met) {
          win = i;
          win_in = 1;
          return kYes;
        }
        continue;
      }
      score = (st.in_check ? 0 : check_bonus) + static_cast<int>(scratch_.size());
    }
    e_->undo();
    order.push_back({first_score(i, tt_best, ply, score), static_cast<uint32_t>(i)});
  }
  std::stable_sort(order.begin(), order.end());
  return kNo;
}

V Worker::prover(int r, int ply, uint64_t key, size_t tt_best) {
  size_t win = kNoMove;
  int win_in = 1;
  if (order_prover(r, ply, tt_best, win, win_in) == kYes) {
    pkillers_[ply].add(moves_[ply][win]);
    sh_.table.store(key, win_in, 0, win);
    return kYes;
  }
  bool unk = false;
  for (size_t k = 0; k < order_[ply].size(); ++k) {
    uint32_t i = order_[ply][k].second;
    // No checkmate without check: a last move that gives none is not even played (the
    // compiled generator tests the attack on a light copy of the move).
    // The test counts as work for df-pn's budget (total_), not as an action applied: with
    // the budget in actions alone, df-pn ran on past the point where alpha-beta refutes
    // faster (matetrack #5 case 11: 0.8 s -> 8.9 s).
    if (r == 1 && sh_.opt.goal == Goal::Mate) {
      ++total_;
      if (!e_->gives_check(moves_[ply][i])) continue;
    }
    apply(moves_[ply][i]);
    V v;
    if (r == 1) {
      if (e_->chance()) {
        v = horizon_chance();
      } else {
        Status st = e_->status();
        v = goal_met(st) ? kYes : kNo;
      }
    } else {
      v = search(r - 1, ply + 1);
    }
    e_->undo();
    if (v == kYes) {
      pkillers_[ply].add(moves_[ply][i]);
      sh_.table.store(key, r, 0, i);
      return kYes;
    }
    if (v == kUnk) {
      if (halted()) return kUnk;
      unk = true;
    }
  }
  if (unk) return kUnk;
  sh_.table.store(key, 0, r, kNoMove);
  return kNo;
}

V Worker::defender(int r, int ply, uint64_t key, size_t tt_best) {
  std::vector<Action>& ms = moves_[ply];
  // The table's refutation first. With one prover move left, then the two killers of
  // this ply and generation order: the refutation is a mate-in-1 test, and the reply
  // that refuted a sibling usually refutes this one. With more left, the rest by the
  // prover's moves after them, fewest first (a reply that ends the game short of the
  // goal before all): every prover move after the defence must itself be refuted, so a
  // defence that leaves the prover 5 moves (a check) costs an eighth of one that leaves
  // 40. The mirror of the prover's mobility ordering; on the first 12 matetrack #5 cases
  // 24% fewer actions than the killers with df-pn's mobility disproof numbers (look()).
  size_t front = 0;
  auto bring = [&](size_t i) {
    if (i < ms.size() && i >= front) std::swap(ms[front++], ms[i]);
  };
  bring(tt_best);
  // A reply that refutes: the ply's killer, and the node's refutation in the table.
  auto refuted = [&](const Action& a) {
    killers_[ply].add(a);
    sh_.table.store(key, 0, r, index_of(a, ply));
    return kNo;
  };
  if (r < 2) {
    for (const Action& k : killers_[ply].k)
      for (size_t i = front; i < ms.size(); ++i)
        if (ms[i] == k) {
          bring(i);
          break;
        }
  } else if (front < ms.size()) {
    std::vector<std::pair<int, Action>>& sc = dorder_[ply];
    sc.clear();
    for (size_t i = front; i < ms.size(); ++i) {
      int score = kChanceScore;
      apply(ms[i]);
      if (!e_->chance()) {
        // The table first (an enhanced transposition cutoff): a reply whose position is
        // refuted within r refutes this node at once; one proved within r is tried last.
        Entry te;
        if (sh_.table.probe(e_->hash(), te)) {
          if (te.nowin >= r) {
            e_->undo();
            return refuted(ms[i]);
          }
          if (te.win && te.win <= r) {
            e_->undo();
            sc.push_back({kChanceScore + 1, ms[i]});
            continue;
          }
        }
        Status st = e_->status_and_actions(scratch_);
        if (st.result == arb::Result::Ongoing)
          score = static_cast<int>(std::min<size_t>(scratch_.size(), kChanceScore - 1));
        else
          score = goal_met(st) ? kChanceScore + 1 : -1;
      }
      e_->undo();
      sc.push_back({score, ms[i]});
    }
    std::stable_sort(sc.begin(), sc.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (size_t i = front; i < ms.size(); ++i) ms[i] = sc[i - front].second;
  }
  bool unk = false;
  for (size_t i = 0; i < ms.size(); ++i) {
    Action a = ms[i];
    apply(a);
    V v = search(r, ply + 1);
    e_->undo();
    if (v == kNo) return refuted(a);
    if (v == kUnk) {
      if (halted()) return kUnk;
      unk = true;
    }
  }
  if (unk) return kUnk;
  sh_.table.store(key, r, 0, kNoMove);
  return kYes;
}

// The index of `a` in the engine's own order (moves_[ply] was reordered in place).
size_t Worker::index_of(const Action& a, int ply) {
  e_->legal_actions(scratch_);
  (void)ply;
  for (size_t i = 0; i < scratch_.size(); ++i)
    if (scratch_[i] == a) return i;
  return kNoMove;
}

}  // namespace arb::solve::detail
