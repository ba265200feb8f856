// `arbiter solve`: forced wins, mates and draws within N moves (solver/).
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <sstream>

#include "arbiter/solver.hpp"
#include "common.hpp"

namespace arb::cli {

namespace {

std::string json_list(const std::vector<std::string>& v) {
  std::string o = "[";
  for (size_t i = 0; i < v.size(); ++i) o += (i ? ",\"" : "\"") + json_escape(v[i]) + "\"";
  return o + "]";
}

std::string join(const std::vector<std::string>& v) {
  std::string o;
  for (const auto& s : v) o += (o.empty() ? "" : " ") + s;
  return o;
}

}  // namespace

int cmd_solve(const std::vector<std::string>& args) {
  Common c;
  std::string goal = "win", chance = "known", depth, max_nodes, timeout, jobs = "1", hash = "64",
              search = "pn";
  bool all_keys = false;
  po::options_description d(
      "arbiter solve [--variant V | --rules F] [--position P] --goal win|mate|draw --depth N\n"
      "              [--all-keys] [--chance known|adversarial|expected] [--json]");
  add_common(d, c);
  d.add_options()("goal", po::value(&goal), "win (any win condition, default), mate (checkmate only), draw")(
      "depth", po::value(&depth), "N: the side to move's moves (1..60)")(
      "all-keys", po::bool_switch(&all_keys), "list every first move that forces it")(
      "chance", po::value(&chance), "known (default: the position fixes every draw), adversarial, expected")(
      "max-nodes", po::value(&max_nodes), "node budget (actions applied; 0: none)")(
      "timeout", po::value(&timeout), "seconds before `unknown within budget` (0: none)")(
      "jobs", po::value(&jobs), "threads splitting the root moves (default 1)")(
      "hash", po::value(&hash), "transposition table size in MiB (default 64)")(
      "search", po::value(&search), "pn (df-pn, default) or ab (depth-limited alpha-beta)");
  if (print_help(d, args)) {
    std::cout << "solve: 0 proved (a win/draw in N, or none within N), 3 unknown within the budget\n";
    return kOk;
  }
  po::variables_map vm = parse_command_line(args, d);
  c.given(vm);
  arb::solve::Options o;
  if (goal == "win")
    o.goal = arb::solve::Goal::Win;
  else if (goal == "mate")
    o.goal = arb::solve::Goal::Mate;
  else if (goal == "draw")
    o.goal = arb::solve::Goal::Draw;
  else
    throw UsageError("--goal must be win, mate or draw, not `" + goal + "`");
  if (chance == "known")
    o.chance = arb::solve::Chance::Known;
  else if (chance == "adversarial")
    o.chance = arb::solve::Chance::Adversarial;
  else if (chance == "expected")
    o.chance = arb::solve::Chance::Expected;
  else
    throw UsageError("--chance must be known, adversarial or expected, not `" + chance + "`");
  if (depth.empty())
    throw UsageError("--depth N is required (the side to move's moves, 1.." +
                     std::to_string(arb::solve::kMaxDepth) + ")");
  o.depth = static_cast<int>(int_option("depth", depth, 1, arb::solve::kMaxDepth));
  if (vm.count("max-nodes")) o.max_nodes = uint_option("max-nodes", max_nodes, 0, UINT64_MAX);
  if (vm.count("timeout")) o.timeout = seconds_option("timeout", timeout, 0, kMaxTimeout);
  o.jobs = static_cast<int>(int_option("jobs", jobs, 1, 64));
  o.table_mb = static_cast<size_t>(int_option("hash", hash, 1, 65536));
  o.all_keys = all_keys;
  if (search != "pn" && search != "ab") throw UsageError("--search must be pn or ab, not `" + search + "`");
  o.proof_numbers = search == "pn";

  Loaded l = load_engine(c);
  if (!l.engine) return kBadInput;
  bool tty = isatty(2);
  if (tty)
    o.progress = [](const arb::solve::Progress& p) {
      std::fprintf(stderr, "\rsolve: depth %d, %llu nodes, %.1f s, %.0f nodes/s   ", p.depth,
                   static_cast<unsigned long long>(p.nodes), p.seconds,
                   p.seconds > 0 ? p.nodes / p.seconds : 0.0);
      std::fflush(stderr);
    };
  arb::solve::Result r = arb::solve::solve(*l.engine, o);
  if (tty && r.seconds > 0.25) std::fprintf(stderr, "\r%70s\r", "");

  using arb::solve::Outcome;
  std::string result;
  bool draw_goal = o.goal == arb::solve::Goal::Draw;
  switch (r.outcome) {
    case Outcome::Proved:
      result = draw_goal ? "draw" : "win";
      break;
    case Outcome::None:
      result = "none";
      break;
    case Outcome::Unknown:
      result = "unknown";
      break;
    case Outcome::Chance:
      result = r.probability >= 1 ? (draw_goal ? "draw" : "win") : r.probability <= 0 ? "none" : "chance";
      break;
  }
  std::ostringstream secs;
  secs.precision(3);
  secs << std::fixed << r.seconds;
  const char* what = o.goal == arb::solve::Goal::Mate ? "mate" : draw_goal ? "draw" : "win";
  // Text for people first; with --json the object is the last line.
  switch (r.outcome) {
    case Outcome::Proved:
      std::cout << what << " in " << r.moves << " (forced; none in fewer";
      if (r.moves > 1) std::cout << ": proved to depth " << r.proved_none_below;
      std::cout << ")\n";
      break;
    case Outcome::None:
      std::cout << "none: no forced " << what << " within " << o.depth << " move" << (o.depth > 1 ? "s" : "")
                << " (proved)";
      if (!r.why.empty()) std::cout << "; " << r.why;
      std::cout << "\n";
      break;
    case Outcome::Unknown:
      std::cout << "unknown within budget: " << r.why << "; no forced " << what << " within "
                << r.proved_none_below << " move" << (r.proved_none_below == 1 ? "" : "s") << " (proved)\n";
      break;
    case Outcome::Chance:
      std::cout << "probability " << r.probability << " that best play forces a " << what << " within "
                << o.depth << " moves (expectimax over the draws)\n";
      break;
  }
  if (!r.line.empty()) std::cout << "line: " << join(r.line) << "\n";
  if (o.all_keys && (r.outcome == Outcome::Proved || r.outcome == Outcome::Chance))
    std::cout << "keys (" << r.keys.size() << "): " << join(r.keys)
              << (r.why.empty() ? "" : " (" + r.why + ")") << "\n";
  std::cout << "nodes " << r.nodes << ", " << secs.str() << " s\n";
  if (c.json) {
    std::string j = "{\"result\":\"" + result + "\"";
    if (r.outcome == Outcome::Proved || (r.outcome == Outcome::Chance && r.probability > 0))
      j += ",\"moves\":" + std::to_string(r.moves);
    j += ",\"line\":" + json_list(r.line);
    if (o.all_keys) j += ",\"keys\":" + json_list(r.keys);
    if (r.outcome == Outcome::Chance) {
      std::ostringstream p;
      p.precision(17);
      p << r.probability;
      j += ",\"probability\":" + p.str();
    }
    j += ",\"goal\":\"" + goal + "\",\"depth\":" + std::to_string(o.depth) +
         ",\"proved_none_below\":" + std::to_string(r.proved_none_below);
    if (!r.why.empty()) j += ",\"why\":\"" + json_escape(r.why) + "\"";
    // Microseconds for machines: a mate in 3 takes about a millisecond, and the benchmark's
    // medians and their ratios were rounded to it.
    std::ostringstream jsecs;
    jsecs.precision(6);
    jsecs << std::fixed << r.seconds;
    j += ",\"nodes\":" + std::to_string(r.nodes) + ",\"seconds\":" + jsecs.str() + "}";
    std::cout << j << "\n";
  }
  return r.outcome == Outcome::Unknown ? kUnknown : kOk;
}

}  // namespace arb::cli
