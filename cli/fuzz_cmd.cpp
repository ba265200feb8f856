// arbiter fuzz: differential fuzzing of the compiled generator against the reference engine.
#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <thread>

#include "common.hpp"
#include "fuzz/fuzz.hpp"
#include "reference.hpp"

namespace arb::cli {

// Differential fuzzing of the compiled generator against the reference engine.
int cmd_fuzz(const std::vector<std::string>& args) {
  Common c;
  arb::fuzz::Options o;
  int jobs = 1;
  std::string save_dir = (fs::path(ARBITER_SOURCE_DIR) / "corpus" / "regressions").string();
  po::options_description d("arbiter fuzz --variant V [--seconds S | --games N] [--seed K] [--json]");
  add_common(d, c, /*with_seed=*/false);
  d.add_options()("seconds", po::value(&o.seconds), "run for this long")("games", po::value(&o.games),
                                                                         "number of random games (default 100)")(
      "seed", po::value(&o.seed), "random seed (runs are deterministic for a seed)")(
      "max-plies", po::value(&o.max_plies), "longest game")("jobs", po::value(&jobs), "parallel jobs (1)")(
      "save-dir", po::value(&save_dir), "where divergences are saved");
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(d).run(), vm);
  po::notify(vm);
  if (c.engine != "compiled") throw UsageError("fuzz always compares the compiled generator with the reference engine");
  Loaded l = load_engine(c);
  if (!l.engine) return kBadInput;
  if (!arb::ref::make_reference_engine(l.variant))
    throw UsageError("variant `" + l.variant + "` has no reference engine to fuzz against");
  auto program = l.compiled.program;
  std::string variant = l.variant;
  arb::fuzz::EngineFactory left = [program] { return arb::lang::make_compiled_engine(program); };
  arb::fuzz::EngineFactory right = [variant] { return arb::ref::make_reference_engine(variant); };
  o.progress = !c.json && isatty(2);
  std::string start = l.engine->position();
  if (jobs < 1 || jobs > 64) throw UsageError("--jobs must be between 1 and 64");
  // Each job plays its own share of games with its own seed (seed + job): deterministic for
  // a given seed and job count. The first divergence by job order is reported.
  std::vector<arb::fuzz::Report> reports(static_cast<size_t>(jobs));
  {
    std::vector<std::thread> threads;
    for (int j = 0; j < jobs; ++j) {
      arb::fuzz::Options oj = o;
      oj.seed = o.seed + static_cast<uint64_t>(j);
      oj.games = o.games / jobs + (static_cast<uint64_t>(j) < o.games % jobs ? 1 : 0);
      oj.progress = o.progress && j == 0;
      threads.emplace_back([&, oj, j] { reports[j] = arb::fuzz::run(left, right, start, oj); });
    }
    for (auto& t : threads) t.join();
  }
  arb::fuzz::Report r;
  for (const auto& rj : reports) {
    r.games += rj.games;
    r.positions += rj.positions;
    r.seconds = std::max(r.seconds, rj.seconds);
    if (!r.divergence && rj.divergence) r.divergence = rj.divergence;
  }
  uint64_t rate = static_cast<uint64_t>(r.seconds > 0 ? r.positions / r.seconds : 0);
  std::string saved;
  if (r.divergence) {
    const auto& dv = *r.divergence;
    std::string body = "variant: " + variant + "\nposition: " + dv.position + "\naction: " + dv.action + "\nwhat: " + dv.what +
                       "\ncompiled: " + dv.left + "\nreference: " + dv.right + "\ndiff: " + dv.diff + "\nseed: " +
                       std::to_string(o.seed) + "\n";
    std::string name = variant + "-" + std::to_string(std::hash<std::string>{}(dv.position) % 1000000007) + ".txt";
    try {
      write_atomically(fs::path(save_dir) / name, body);
      saved = (fs::path(save_dir) / name).string();
    } catch (const std::exception& e) {
      std::cerr << "warning: could not save the divergence: " << e.what() << "\n";
    }
  }
  if (c.json) {
    std::cout << "{\"variant\":\"" << variant << "\",\"seed\":" << o.seed << ",\"games\":" << r.games
              << ",\"positions\":" << r.positions << ",\"seconds\":" << r.seconds << ",\"positions_per_second\":" << rate
              << ",\"divergence\":" << (r.divergence ? arb::fuzz::to_json(*r.divergence) : "null")
              << ",\"saved\":\"" << json_escape(saved) << "\"}\n";
  } else {
    std::cout << "fuzz " << variant << ": " << r.games << " games, " << r.positions << " positions compared in "
              << r.seconds << " s (" << rate << "/s)\n";
    if (r.divergence) {
      const auto& dv = *r.divergence;
      std::cout << "DIVERGENCE (" << dv.what << ") at ply " << dv.plies << ", shrunk:\n  position: " << dv.position
                << (dv.action.empty() ? "" : "\n  after:    " + dv.action) << "\n  compiled:  " << dv.left << "\n  reference: " << dv.right << "\n";
      if (!dv.diff.empty()) std::cout << "  difference (+ compiled only, - reference only): " << dv.diff << "\n";
      if (!saved.empty()) std::cout << "  saved: " << saved << "\n";
    } else {
      std::cout << "no divergence\n";
    }
  }
  return r.divergence ? kFailed : kOk;
}

}  // namespace arb::cli
