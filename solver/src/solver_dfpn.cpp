// The forced-win solver's df-pn search (the Worker's; solver.cpp has the overview).
#include <algorithm>
#include <cmath>
#include <vector>

#include "solver_worker.hpp"

namespace arb::solve::detail {

// The value of the current position as a node with r moves left, without expanding it.
void Worker::look(int r, Child& c) {
  if (e_->chance()) {
    sh_.fallback = true;
    c.pn = c.dn = 1;
    return;
  }
  // The tables first: a re-expanded parent looks at the same children again.
  uint64_t hash = e_->hash();
  c.key = pn_key(hash, r);
  Entry te;
  if (sh_.table.probe(hash, te)) {
    if (te.win && te.win <= r) {
      c.pn = 0;
      c.dn = kInf;
      return;
    }
    if (te.nowin >= r) {
      c.pn = kInf;
      c.dn = 0;
      return;
    }
  }
  if (r > 0 && sh_.pn->probe(c.key, r, c.pn, c.dn)) return;
  bool mine = e_->side_to_move() == sh_.prover;
  // A defender node counts its replies, a prover node with two moves or more left its
  // moves: listed with the status in one go (a prover node with one left is settled
  // below).
  Status st = (!mine && r > 0) || (mine && r >= 2) ? e_->status_and_actions(scratch_) : e_->status();
  if (st.result != arb::Result::Ongoing) {
    // A terminal: won at every depth, or at none.
    bool met = goal_met(st);
    sh_.table.store(hash, met ? 1 : 0, met ? 0 : kMaxDepth, kNoMove);
    c.pn = met ? 0 : kInf;
    c.dn = met ? kInf : 0;
    return;
  }
  if (r == 0) {
    c.pn = kInf;
    c.dn = 0;
    return;
  }
  if (mine && r == 1) {
    // Settled at once: the alpha-beta search at r == 1 is one status() per move.
    V v = search(1, scratch_ply_);
    if (v == kUnk) {
      c.pn = c.dn = 1;
      return;
    }
    c.pn = v == kYes ? 0 : kInf;
    c.dn = v == kYes ? kInf : 0;
    return;
  }
  if (mine) {
    // Mobility for the disproof: every prover move must be refuted, so dn starts at the
    // number of moves; a defender node (AND, dn the least of its children's) then looks
    // first at the defence that leaves the prover fewest. On the first 12 matetrack
    // cases of each length it cut the actions of 10 of 12 #5 proofs (median time 0.60 ->
    // 0.38 s) and of 11 of 12 #4 proofs.
    c.pn = 1;
    c.dn = static_cast<uint32_t>(std::max<size_t>(scratch_.size(), 1));
  } else {
    uint32_t n = static_cast<uint32_t>(std::max<size_t>(scratch_.size(), 1));
    c.pn = (st.in_check || sh_.opt.goal == Goal::Draw) ? n : 2 * n + 1;
    c.dn = 1;
  }
  sh_.pn->store(c.key, r, c.pn, c.dn, 0);
}

// Expands the node (current position, r) until its pn reaches thpn or its dn thdn, or
// it is settled; returns its (pn, dn). Settled values go to the proof table.
std::pair<uint32_t, uint32_t> Worker::mid(int r, int ply, uint64_t hash, uint32_t thpn, uint32_t thdn) {
  uint64_t key = pn_key(hash, r);
  uint64_t before = total_;
  bool mine = e_->side_to_move() == sh_.prover;
  std::vector<Action>& ms = buffer(ply);
  e_->legal_actions(ms);
  std::vector<Child>& ch = children_[ply];
  ch.clear();
  int cr = mine ? r - 1 : r;
  scratch_ply_ = ply + 1;
  for (size_t i = 0; i < ms.size(); ++i) {
    apply(ms[i]);
    Child c{static_cast<uint32_t>(i), 1, 1, 0};
    look(cr, c);
    e_->undo();
    if (halted()) return {1, 1};
    if (mine && c.pn == 0) {
      pkillers_[ply].add(ms[i]);
      sh_.table.store(hash, r, 0, i);
      return {0, kInf};
    }
    if (!mine && c.dn == 0) {
      sh_.table.store(hash, 0, r, i);
      return {kInf, 0};
    }
    ch.push_back(c);
  }
  if (ch.empty()) {
    sh_.table.store(hash, 0, r, kNoMove);
    return {kInf, 0};
  }
  uint32_t pn = 0, dn = 0;
  for (;;) {
    // The node's numbers and its most proving child (OR: least pn; AND: least dn).
    uint64_t sum = 0;
    uint32_t best = kInf + 1, second = kInf;
    size_t bi = 0;
    for (size_t i = 0; i < ch.size(); ++i) {
      uint32_t sel = mine ? ch[i].pn : ch[i].dn;
      sum += mine ? ch[i].dn : ch[i].pn;
      if (sel < best) {
        second = best;
        best = sel;
        bi = i;
      } else if (sel < second) {
        second = sel;
      }
    }
    second = std::min(second, kInf);
    if (mine) {
      pn = best;
      dn = sat(sum);
    } else {
      pn = sat(sum);
      dn = best;
    }
    if (pn == 0 || dn == 0 || pn >= thpn || dn >= thdn || halted()) break;
    // Thresholds for the child (with the 1+epsilon trick against thrashing).
    uint32_t eps = sat(uint64_t{second} + second / 4 + 1);
    uint32_t ctp, ctd;
    Child& c = ch[bi];
    if (mine) {
      ctp = std::min(thpn, eps);
      ctd = thdn >= kInf ? kInf : sat(uint64_t{thdn} - dn + c.dn);
    } else {
      ctd = std::min(thdn, eps);
      ctp = thpn >= kInf ? kInf : sat(uint64_t{thpn} - pn + c.pn);
    }
    apply(ms[c.move]);
    auto v = mid(cr, ply + 1, e_->hash(), ctp, ctd);
    e_->undo();
    c.pn = v.first;
    c.dn = v.second;
  }
  if (halted()) return {pn, dn};
  if (pn == 0) {
    size_t win = kNoMove;
    for (const Child& c : ch)
      if (c.pn == 0) win = c.move;
    if (mine && win != kNoMove) pkillers_[ply].add(ms[win]);
    sh_.table.store(hash, r, 0, mine ? win : kNoMove);
  } else if (dn == 0) {
    size_t ref = kNoMove;
    for (const Child& c : ch)
      if (c.dn == 0) ref = c.move;
    sh_.table.store(hash, 0, r, mine ? kNoMove : ref);
  } else {
    sh_.pn->store(key, r, pn, dn, total_ - before);
  }
  return {pn, dn};
}

// df-pn from the current position with r prover moves left: kYes, kNo or kUnk.
V Worker::dfpn(int r, int ply) {
  Child c{0, 1, 1, 0};
  scratch_ply_ = ply;
  look(r, c);
  if (halted()) return kUnk;
  while (c.pn != 0 && c.dn != 0) {
    auto v = mid(r, ply, e_->hash(), kInf, kInf);
    c.pn = v.first;
    c.dn = v.second;
    if (halted()) return kUnk;
  }
  return c.pn == 0 ? kYes : kNo;
}

}  // namespace arb::solve::detail
