// The forced-win solver (see arbiter/solver.hpp for what it proves).
//
// A node's value is three-valued: proved (the prover forces the goal within r more moves of
// its own), refuted (it cannot), unknown (the budget ran out, the search was cut because
// another thread already answered, or, with Chance::Known, a draw the position does not
// fix lies on the way). Unknown never enters the table, so every stored value is a proof.
//
// By responsibility: the tables (solver_table.hpp), the search thread and what the threads
// share (solver_worker.hpp), alpha-beta (solver_alphabeta.cpp), df-pn (solver_dfpn.cpp),
// chance and expectimax (solver_expectimax.cpp), the principal variations
// (solver_pv.cpp), and here the driver: iterative deepening over the root moves, the
// threads, the result.
#include "arbiter/solver.hpp"

#include <algorithm>
#include <atomic>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "arbiter/notation.hpp"
#include "arbiter/parallel.hpp"
#include "solver_worker.hpp"

namespace arb::solve {

using namespace detail;

Result solve(const Engine& root, const Options& opt) {
  if (opt.depth < 1 || opt.depth > kMaxDepth)
    throw std::invalid_argument("depth must be between 1 and " + std::to_string(kMaxDepth));
  Result res;
  Shared sh(opt, root.side_to_move());
  Worker main(sh, root.clone(), true);
  Engine& e = main.engine();
  auto finish = [&]() {
    main.flush_final();
    res.nodes = sh.nodes.load();
    res.seconds = sh.seconds();
    return res;
  };
  if (!e.chance()) {
    Status st = e.status();
    if (st.result != arb::Result::Ongoing) {
      res.outcome = Outcome::None;
      res.why = "the game is already over (" + st.reason + ")";
      return finish();
    }
  }

  if (opt.chance == Chance::Expected) {
    // Depths 1, 2, ... N: a win within d moves is one within N, so the probability grows
    // with d and a 1 ends the search; a deeper iteration finds the shallower ones' values
    // in the memo, and a budget that ends depth d still leaves depth d-1's probability.
    double p = 0;
    int d = 1;
    for (; d <= opt.depth; ++d) {
      sh.depth = d;
      double q = main.expect(d, 0);
      if (sh.stop) {
        res.outcome = Outcome::Unknown;
        res.why = sh.why;
        if (d > 1) {
          std::ostringstream t;
          t << "; within " << d - 1 << " move" << (d > 2 ? "s" : "") << " the probability is " << p;
          res.why += t.str();
        }
        return finish();
      }
      p = q;
      if (p >= 1.0) break;
    }
    res.outcome = Outcome::Chance;
    res.probability = p;
    res.moves = p > 0 ? std::min(d, opt.depth) : 0;
    sh.unlimited = true;
    const int searched = res.moves > 0 ? res.moves : opt.depth;  // the last depth searched
    res.line = expected_line(main, sh.prover, searched);
    if (opt.all_keys && !e.chance()) {
      std::vector<Action> ms;
      e.legal_actions(ms);
      for (const Action& a : ms) {
        std::string t = text(e, a);
        defer_draws(e, searched == 1);
        e.apply(a);
        double q = main.expect(searched - 1, 1);
        e.undo();
        if (p > 0 && q >= p - 1e-12) res.keys.push_back(t);
      }
    }
    return finish();
  }

  // Root splitting: the root's moves, ordered once (checks, then defender mobility), are
  // shared out between `jobs` workers, each with its own engine and the common table.
  bool split = !e.chance();
  std::vector<Action> root_moves;
  std::vector<size_t> order;
  if (split) {
    e.legal_actions(root_moves);
    std::vector<std::pair<int, size_t>> scored;
    for (size_t i = 0; i < root_moves.size(); ++i) {
      e.apply(root_moves[i]);
      int score = 1 << 15;
      if (!e.chance()) {
        Status st = e.status();
        std::vector<Action> replies;
        e.legal_actions(replies);
        score = (st.in_check && opt.goal != Goal::Draw ? 0 : 1 << 16) + static_cast<int>(replies.size());
      }
      e.undo();
      scored.push_back({score, i});
    }
    std::stable_sort(scored.begin(), scored.end());
    for (const auto& s : scored) order.push_back(s.second);
  }
  int jobs = std::clamp(opt.jobs, 1, 64);
  std::vector<std::unique_ptr<Worker>> helpers;
  for (int j = 1; split && j < jobs && j < static_cast<int>(root_moves.size()); ++j)
    helpers.push_back(std::make_unique<Worker>(sh, root.clone(), false));

  int proved = 0;
  bool unknown = false;
  std::vector<V> results;
  // df-pn, on one thread whatever `jobs`; it hands over to the alpha-beta search (from
  // depth 1 again, the table keeps what was settled) when it meets a chance node, and the
  // helpers then split the root moves. With --jobs 2 the root split used alpha-beta from
  // the start: on two corpus #5 it applied 2.5 and 6.4 times the actions of df-pn on one
  // thread (CPU 2.6 and 6.3 times) and printed another key than one job; df-pn alone
  // keeps one job's answer and cost.
  main.pn_mode = opt.proof_numbers && split;
  if (main.pn_mode) sh.pn = std::make_unique<PnTable>(opt.table_mb);
  for (int d = 1; d <= opt.depth && !proved && !unknown; ++d) {
    sh.depth = d;
    main.flush_final();  // the work so far sizes the tables for this iteration
    sh.table.reserve_for(sh.nodes.load());
    if (sh.pn) sh.pn->reserve_for(sh.nodes.load());
    V v;
    if (split && (opt.all_keys || !main.pn_mode)) {
      results.assign(root_moves.size(), kUnk);
      std::atomic<size_t> next{0};
      auto run = [&](Worker& w) {
        for (;;) {
          size_t k = next.fetch_add(1);
          if (k >= order.size() || w.halted()) break;
          size_t i = order[k];
          w.apply(root_moves[i]);
          V r = w.prove(d - 1, 1);
          w.engine().undo();
          results[i] = r;
          if (r == kYes && !opt.all_keys) sh.answered = true;
        }
        w.flush_final();
      };
      // Job 0 is the main worker (on this thread), job j the helper j - 1.
      arb::parallel_for(static_cast<int>(helpers.size()) + 1, [&](int j, std::stop_token) {
        run(j == 0 ? main : *helpers[static_cast<size_t>(j) - 1]);
      });
      sh.answered = false;
      bool yes = false, unk = false;
      for (V r : results) {
        yes |= r == kYes;
        unk |= r == kUnk;
      }
      v = yes ? kYes : unk ? kUnk : kNo;
    } else {
      v = main.prove(d, 0);
    }
    if (sh.fallback) {
      sh.fallback = false;
      main.pn_mode = false;
      res.proved_none_within = 0;
      d = 0;
      continue;
    }
    if (v == kYes) {
      proved = d;
    } else if (v == kNo) {
      res.proved_none_within = d;
    } else {
      unknown = true;
    }
  }

  if (proved) {
    res.outcome = Outcome::Proved;
    res.moves = proved;
    if (split && opt.all_keys) {
      for (size_t i = 0; i < root_moves.size(); ++i)
        if (results[i] == kYes) res.keys.push_back(text(e, root_moves[i]));
      for (V r : results)
        if (r == kUnk) res.why = "keys incomplete: " + sh.why;
    }
    sh.stop = false;
    sh.unlimited = true;
    res.line = main_line(main, sh.prover, proved);
  } else if (unknown) {
    res.outcome = Outcome::Unknown;
    res.why = sh.why.empty() ? "search interrupted" : sh.why;
  } else {
    res.outcome = Outcome::None;
  }
  return finish();
}

}  // namespace arb::solve
