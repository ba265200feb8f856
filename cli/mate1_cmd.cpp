// arbiter fuzz --against z3-mate1: Z3's mate-in-1 answer (the synthesis encoding, a second
// back end of the compiler) against the compiled generator's, on positions of random games.
#include <iostream>
#include <random>
#include <sstream>

#include "arbiter/synth/mate1_check.hpp"
#include "common.hpp"
#include "summary.hpp"

namespace arb::cli {

int fuzz_z3_mate1(const Common& c, const Loaded& l, uint64_t seed, uint64_t games, uint64_t endings,
                  int max_plies, const std::string& junit, const std::string& summary) {
  if (!l.compiled.program || !l.compiled.model)
    throw UsageError("--against z3-mate1 needs a ruleset (--rules FILE or --variant NAME)");
  if (l.compiled.program->grid || l.compiled.program->cards)
    throw UsageError(
        "--against z3-mate1 compares positions given square by square on a bounded board; this ruleset's "
        "position text is not FEN (the grid or cards)");
  // Positions: random endings (the royals and a few pieces: mates in 1 are frequent there
  // and Z3 answers quickly), and one position of each random game from the start.
  std::mt19937_64 rng(seed);
  auto e = l.make();
  std::vector<std::string> positions =
      arb::synth::random_endings(*l.compiled.model, *e, static_cast<int>(endings), seed);
  const std::string start = e->position();
  std::vector<arb::Action> as;
  for (uint64_t g = 0; g < games; ++g) {
    e->set_position(start);
    const int stop = 1 + static_cast<int>(rng() % static_cast<uint64_t>(std::max(1, max_plies)));
    for (int ply = 0; ply < stop; ++ply) {
      e->legal_actions(as);
      if (as.empty()) break;
      e->apply(as[rng() % as.size()]);
    }
    positions.push_back(e->position());
  }
  const auto r = arb::synth::compare_mate_in_1(l.compiled.program, l.make, positions);
  std::ostringstream head;
  head << "z3-mate1 " << l.variant << ": " << plural(r.positions, "position") << " compared (" << r.with_mate
       << " with a mate in 1), " << r.inconclusive << " inconclusive, " << r.refused << " refused, in "
       << r.seconds << " s";
  std::string detail;
  for (const auto& d : r.differences)
    detail += "DIVERGENCE (mate-in-1):\n  position:  " + d.position + "\n  z3:        " + d.z3 +
              "\n  compiled:  " + d.engine + "\n";
  if (!junit.empty()) {
    JUnitCase tc;
    tc.name = "z3-mate1 " + l.variant + " seed " + std::to_string(seed);
    tc.classname = "arbiter.fuzz.z3-mate1." + l.variant;
    tc.seconds = r.seconds;
    tc.failed = !r.differences.empty();
    tc.message = tc.failed ? "Z3 and the compiled generator disagree on a mate in 1" : "";
    tc.output = head.str() + "\n" + detail;
    write_atomically(junit, junit_xml("arbiter fuzz", {tc}));
  }
  if (!summary.empty()) {
    std::string md = "## arbiter fuzz --against z3-mate1: " + l.variant +
                     (r.differences.empty() ? " (passed)" : " (FAILED)") + "\n\n" + head.str() + "\n\n";
    for (const auto& d : r.differences)
      md += markdown_divergence("mate-in-1", "z3: " + d.z3 + "\ncompiled: " + d.engine, d.position);
    write_atomically(summary, md);
  }
  if (c.json) {
    Json j = {{"variant", l.variant},     {"against", "z3-mate1"},    {"seed", seed},
              {"positions", r.positions}, {"with_mate", r.with_mate}, {"inconclusive", r.inconclusive},
              {"refused", r.refused},     {"seconds", r.seconds},     {"divergences", Json::array()}};
    for (const auto& d : r.differences)
      j["divergences"].push_back({{"position", d.position}, {"z3", d.z3}, {"compiled", d.engine}});
    std::cout << json_text(j) << "\n";
  } else {
    std::cout << head.str() << "\n" << (detail.empty() ? "no divergence\n" : detail);
  }
  return r.differences.empty() ? kOk : kFailed;
}

}  // namespace arb::cli
