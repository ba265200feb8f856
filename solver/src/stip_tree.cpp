// Keyed play's solution trees (Options::tree) and tries (Options::tries).
#include "arbiter/notation.hpp"
#include "stip_search.hpp"

namespace arb::stip::detail {

// ---- solution trees (keyed play) ----------------------------------------------------
// The attacker to move with up to r moves: its fastest moves, the first one with its
// tree (the others are its duals).
std::vector<TreeNode> Search::continuations(int r) {
  int k = 0;
  for (int i = 1; i <= r && !k; ++i)
    if (attack(i)) k = i;
  std::vector<TreeNode> out;
  if (!k) return out;
  std::vector<Action> ms;
  e_->legal_actions(ms);
  for (const Action& m : ms) {
    TreeNode n = node(m, k);
    play(m);
    const bool ok = after_attack(k);
    if (ok && out.empty()) n.next = answers(k);
    unplay();
    if (ok) out.push_back(std::move(n));
  }
  if (out.size() > 1)
    for (auto& n : out) n.dual = true;
  return out;
}
// After an attacker's move that reaches the aim within r moves counted from it: every
// defence with its answers (a reflex defender that can reach the aim must: only those).
std::vector<TreeNode> Search::answers(int r) {
  const Color d = e_->side_to_move();
  if (o_.stip.play == Play::Direct && reached(status(), d)) return {};
  const bool must = o_.stip.play == Play::Reflex && can_reach_now();
  std::vector<Action> ms;
  e_->legal_actions(ms);
  std::vector<TreeNode> out;
  for (const Action& m : ms) {
    TreeNode n = node(m, r - 1);
    play(m);
    Status st = status();
    if (o_.stip.play != Play::Direct && reached(st, opposite(d))) {
      n.moves = 0;
      out.push_back(std::move(n));  // the defender gives the mate
    } else if (!must && r > 1 && !over(st)) {
      n.next = continuations(r - 1);
      out.push_back(std::move(n));
    }
    unplay();
  }
  return out;
}
// After an attacker's first move: the defences after which the stipulation fails within
// r moves counted from that move (up to limit + 1 of them).

std::vector<Action> Search::refutations(int r, size_t limit) {
  std::vector<Action> out;
  Status st = status();
  const Color d = e_->side_to_move();
  const Play p = o_.stip.play;
  if (p == Play::Direct && reached(st, d)) return out;
  std::vector<Action> ms;
  e_->legal_actions(ms);
  if (over(st) || ms.empty()) return ms;  // everything refutes a move that ends the game
  for (const Action& m : ms) {
    play(m);
    Status s2 = status();
    bool holds;
    if (p == Play::Direct)
      holds = !over(s2) && r > 1 && attack(r - 1);
    else
      holds = reached(s2, opposite(d)) || (r > 1 && !over(s2) && attack(r - 1));
    unplay();
    if (!holds) out.push_back(m);
    if (out.size() > limit) break;
  }
  return out;
}

TreeNode Search::node(const Action& m, int moves) {
  TreeNode n;
  n.uci = uci(e_->describe(m), e_->chess960());
  n.san = san(*e_, m);
  n.moves = moves;
  return n;
}

}  // namespace arb::stip::detail
