#include "arbiter/lang/expect.hpp"

#include <algorithm>
#include <chrono>
#include <optional>

#include "arbiter/notation.hpp"

namespace arb::lang {

namespace {

// perft(depth) of `e` within `budget`, depth by depth; `why` says what stopped it early.
std::optional<uint64_t> budgeted_perft(Engine& e, int depth, const ExpectBudget& budget, std::string& why) {
  using clock = std::chrono::steady_clock;
  uint64_t prev = 1, n = 1;
  double seconds = 0;
  for (int d = 1; d <= depth; ++d) {
    if (d > 1) {
      // No leaf at depth d-1: none deeper either.
      if (n == 0) return 0;
      const double growth = std::max(1.0, static_cast<double>(n) / static_cast<double>(prev));
      const double nodes = static_cast<double>(n) * growth;
      if (budget.max_nodes && nodes > static_cast<double>(budget.max_nodes)) {
        why = "not counted: perft " + std::to_string(d) + " would pass the node budget of " +
              std::to_string(budget.max_nodes) + " (perft " + std::to_string(d - 1) + " = " +
              std::to_string(n) + ")";
        return std::nullopt;
      }
      if (budget.deadline != clock::time_point::max() &&
          clock::now() + std::chrono::duration_cast<clock::duration>(
                             std::chrono::duration<double>(seconds * growth)) >
              budget.deadline) {
        why = "not counted: perft " + std::to_string(d) + " would pass the time budget";
        return std::nullopt;
      }
    }
    auto t0 = clock::now();
    prev = n;
    n = e.perft(d);
    seconds = std::chrono::duration<double>(clock::now() - t0).count();
  }
  return n;
}

}  // namespace

ExpectOutcome run_expectation(const Expectation& ex, const EngineMaker& make, int max_depth,
                              const ExpectBudget& budget) {
  ExpectOutcome o;
  o.expectation = &ex;
  if (ex.loc.src)
    o.where = ex.loc.src->path + ":" + std::to_string(ex.loc.line) + ":" + std::to_string(ex.loc.col);
  auto t0 = std::chrono::steady_clock::now();
  try {
    auto e = make();
    if (!ex.position.empty()) e->set_position(ex.position);
    if (ex.kind == "perft") {
      o.want = std::to_string(ex.nodes);
      if (ex.depth < 0 || ex.depth > max_depth)
        o.got =
            "depth " + std::to_string(ex.depth) + " (over the limit of " + std::to_string(max_depth) + ")";
      else if (auto n = budgeted_perft(*e, ex.depth, budget, o.got))
        o.got = std::to_string(*n);
    } else if (ex.kind == "status") {
      Status st = e->status();
      o.got = st.reason.empty() ? "ongoing" : st.reason;
      o.want = ex.text;
    } else {
      o.got = parse_action(*e, ex.text).has_value() ? "legal" : "illegal";
      o.want = ex.kind;
    }
    o.ok = o.got == o.want;
  } catch (const PositionError& pe) {
    o.got = std::string("bad position: ") + pe.what();
    o.unusable = true;
  } catch (const ChanceError& ce) {
    o.got = std::string("chance node: ") + ce.what();
  }
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return o;
}

std::vector<ExpectOutcome> run_expectations(const std::vector<Expectation>& expects, const EngineMaker& make,
                                            int max_depth, const ExpectBudget& budget) {
  std::vector<ExpectOutcome> out;
  for (const Expectation& ex : expects) out.push_back(run_expectation(ex, make, max_depth, budget));
  return out;
}

}  // namespace arb::lang
