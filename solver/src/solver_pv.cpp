// The forced-win solver's principal variations (solver.cpp has the overview): the main
// line after a proof, the expected line after an expectimax value.
#include <string>
#include <vector>

#include "arbiter/notation.hpp"
#include "solver_worker.hpp"

namespace arb::solve::detail {

std::string text(Engine& e, const Action& a) {
  return uci(e.describe(a), e.chess960());
}

// The main line after a proof in `moves`: the prover's proving moves, the defender's reply
// that holds out longest (with adversarial chance, the draw that does too).
std::vector<std::string> main_line(Worker& w, Color prover, int moves) {
  bool pn = w.pn_mode;
  w.pn_mode = false;  // lines below settled nodes: the table answers most of them
  Engine& e = w.engine();
  std::vector<std::string> line;
  int r = moves, applied = 0;
  while (applied < 4 * kMaxDepth) {
    if (!e.chance() && e.status().result != arb::Result::Ongoing) break;
    if (r <= 0) break;
    std::vector<Action> ms;
    e.legal_actions(ms);
    if (ms.empty()) break;
    size_t pick = kNoMove;
    int next = -1;
    if (!e.chance() && e.side_to_move() == prover) {
      // The table's proving move first: it is proved, the others would each need a search.
      size_t best = w.table_best();
      if (best < ms.size()) {
        e.apply(ms[best]);
        if (w.search(r - 1, 1) == kYes) pick = best;
        e.undo();
      }
      for (size_t i = 0; i < ms.size() && pick == kNoMove; ++i) {
        e.apply(ms[i]);
        if (w.search(r - 1, 1) == kYes) pick = i;
        e.undo();
      }
      next = r - 1;
    } else {
      for (size_t i = 0; i < ms.size(); ++i) {
        e.apply(ms[i]);
        int k = 0;
        while (k <= r && w.search(k, 1) != kYes) ++k;
        e.undo();
        if (k <= r && k > next) {
          next = k;
          pick = i;
        }
      }
    }
    if (pick == kNoMove) break;
    line.push_back(text(e, ms[pick]));
    e.apply(ms[pick]);
    ++applied;
    r = next;
  }
  for (int i = 0; i < applied; ++i) e.undo();
  w.pn_mode = pn;
  return line;
}

// A line of best play in expected mode: the prover's best move, the defender's most
// damaging reply, the most probable draw.
std::vector<std::string> expected_line(Worker& w, Color prover, int moves) {
  Engine& e = w.engine();
  std::vector<std::string> line;
  int r = moves, applied = 0;
  while (applied < 4 * kMaxDepth && r > 0) {
    std::vector<Action> ms;
    size_t pick = kNoMove;
    bool defer = false;
    if (e.chance()) {
      std::vector<ChanceOutcome> outs;
      e.chance_outcomes(outs);
      double best = -1;
      for (size_t i = 0; i < outs.size(); ++i) {
        ms.push_back(outs[i].action);
        if (outs[i].weight > best) {
          best = outs[i].weight;
          pick = i;
        }
      }
    } else {
      if (e.status().result != arb::Result::Ongoing) break;
      e.legal_actions(ms);
      bool mine = e.side_to_move() == prover;
      defer = r == 1;  // actions applied as expect() applied those it valued here
      double best = mine ? -1 : 2;
      size_t chosen = w.expect_choice(r);  // expect() keeps its choice: no search again
      if (chosen < ms.size()) pick = chosen;
      for (size_t i = 0; i < ms.size() && chosen >= ms.size(); ++i) {
        defer_draws(e, defer);
        e.apply(ms[i]);
        double p = w.expect(mine ? r - 1 : r, 1);
        e.undo();
        if (mine ? p > best : p < best) {
          best = p;
          pick = i;
        }
      }
      if (mine) --r;
    }
    if (pick == kNoMove) break;
    line.push_back(text(e, ms[pick]));
    defer_draws(e, defer);
    e.apply(ms[pick]);
    ++applied;
  }
  for (int i = 0; i < applied; ++i) e.undo();
  return line;
}

}  // namespace arb::solve::detail
