#include "arbiter/lang/expect.hpp"

#include <chrono>

#include "arbiter/notation.hpp"

namespace arb::lang {

ExpectOutcome run_expectation(const Expectation& ex, const EngineMaker& make, int max_depth) {
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
      else
        o.got = std::to_string(e->perft(ex.depth));
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
  } catch (const ChanceError& ce) {
    o.got = std::string("chance node: ") + ce.what();
  }
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return o;
}

std::vector<ExpectOutcome> run_expectations(const std::vector<Expectation>& expects, const EngineMaker& make,
                                            int max_depth) {
  std::vector<ExpectOutcome> out;
  for (const Expectation& ex : expects) out.push_back(run_expectation(ex, make, max_depth));
  return out;
}

}  // namespace arb::lang
