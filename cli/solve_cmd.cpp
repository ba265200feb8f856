// `arbiter solve`: forced wins, mates and draws within N moves (solver/).
#include <unistd.h>

#include <cstdio>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "arbiter/solver.hpp"
#include "arbiter/stipulation.hpp"
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

std::string json_line(const arb::stip::Line& l) {
  return "{\"moves\":" + std::to_string(l.moves) + ",\"uci\":" + json_list(l.uci) +
         ",\"san\":" + json_list(l.san) + "}";
}

// The composer's stipulations (solver/include/arbiter/stipulation.hpp).
int solve_stipulation(const Common& c, const arb::stip::Options& o, bool uci, const std::string& goal) {
  Loaded l = load_engine(c);
  if (!l.engine) return kBadInput;
  arb::stip::Options opt = o;
  bool tty = isatty(2);
  if (tty)
    opt.progress = [](uint64_t nodes, double secs) {
      std::fprintf(stderr, "\rsolve: %llu nodes, %.1f s   ", static_cast<unsigned long long>(nodes), secs);
      std::fflush(stderr);
    };
  arb::stip::Result r;
  try {
    r = arb::stip::solve(*l.engine, opt);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  if (tty && r.seconds > 0.25) std::fprintf(stderr, "\r%70s\r", "");
  using arb::stip::Outcome;
  const std::string st = o.stip.text();
  const bool exact = !r.solutions.empty();
  const char* result = r.outcome == Outcome::Unknown ? "unknown"
                       : exact                       ? "solved"
                       : r.shorter.empty()           ? "none"
                                                     : "shorter";
  const char* side = r.start == arb::Color::White ? "white" : "black";
  if (c.json) {
    std::string j = std::string("{\"result\":\"") + result + "\",\"stipulation\":\"" + json_escape(st) +
                    "\",\"goal\":\"" + json_escape(goal) + "\",\"start\":\"" + side + "\",\"solutions\":[";
    for (size_t i = 0; i < r.solutions.size(); ++i) j += (i ? "," : "") + json_line(r.solutions[i]);
    j += "],\"shorter\":[";
    for (size_t i = 0; i < r.shorter.size(); ++i) j += (i ? "," : "") + json_line(r.shorter[i]);
    j += "],\"proved_none_below\":" + std::to_string(r.proved_none_below);
    if (!r.why.empty()) j += ",\"why\":\"" + json_escape(r.why) + "\"";
    std::ostringstream secs;
    secs.precision(6);
    secs << std::fixed << r.seconds;
    j += ",\"nodes\":" + std::to_string(r.nodes) + ",\"seconds\":" + secs.str() + "}";
    std::cout << j << "\n";
    return r.outcome == Outcome::Unknown ? kUnknown : kOk;
  }
  const bool keyed = !o.stip.series && o.stip.play != arb::stip::Play::Help;
  auto show = [&](const arb::stip::Line& line) {
    const auto& t = uci ? line.uci : line.san;
    std::string out;
    if (keyed)
      return "  " + t[0] + (line.moves < o.stip.moves ? " (in " + std::to_string(line.moves) + ")" : "");
    for (const auto& m : t) out += (out.empty() ? "" : " ") + m;
    return "  " + out;
  };
  std::cout << st << " (" << side << " starts): ";
  switch (r.outcome) {
    case Outcome::Unknown:
      std::cout << "unknown within budget: " << r.why << "\n";
      break;
    case Outcome::None:
      std::cout << "no solution (proved)\n";
      break;
    case Outcome::Solved:
      std::cout << r.solutions.size() << (keyed ? " key" : " solution")
                << (r.solutions.size() == 1 ? "" : "s") << " in " << o.stip.moves
                << (o.stip.half ? ".5" : "");
      if (!r.shorter.empty()) std::cout << ", " << r.shorter.size() << " shorter";
      std::cout << "\n";
      break;
  }
  for (const auto& line : r.solutions) std::cout << show(line) << "\n";
  if (!r.shorter.empty()) {
    std::cout << "shorter:\n";
    for (const auto& line : r.shorter) {
      std::string t = show(line);
      if (!keyed)
        t += "  (" + std::string(o.stip.series ? "ser-" : "") + std::to_string(line.moves) +
             (o.stip.half ? ".5" : "") + ")";
      std::cout << t << "\n";
    }
  }
  if (r.outcome != Outcome::Unknown)
    std::cout << "none shorter than " << r.proved_none_below << " (proved)\n";
  std::cout << "nodes " << r.nodes << ", " << std::fixed << std::setprecision(3) << r.seconds << " s\n";
  return r.outcome == Outcome::Unknown ? kUnknown : kOk;
}

}  // namespace

int cmd_solve(const std::vector<std::string>& args) {
  Common c;
  std::string goal = "win", chance = "known", depth, max_nodes, timeout, jobs = "1", hash = "64",
              search = "pn";
  std::string stipulation, half_moves, side, notation = "san";
  bool all_keys = false, series = false;
  po::options_description d(
      "arbiter solve [--variant V | --rules F] [--position P] --goal GOAL --depth N\n"
      "              [--all-keys] [--chance known|adversarial|expected] [--json]\n"
      "  GOAL: win|mate|draw (forced, shortest), stalemate|helpmate|selfmate|reflexmate\n"
      "        (composers' stipulations, --series for series movers); or --stipulation TEXT");
  add_common(d, c);
  d.add_options()("goal", po::value(&goal),
                  "win (any win condition, default), mate (checkmate only), draw; stalemate (=N), helpmate "
                  "(h#N), selfmate (s#N), reflexmate (r#N)")(
      "stipulation", po::value(&stipulation),
      "Popeye's spelling: #N =N h#N h#N.5 h=N s#N s=N r#N r=N ser-#N ser-=N "
      "ser-h#N ser-h=N ser-s#N ser-s=N")("series", po::bool_switch(&series),
                                         "series mover (with --goal mate|stalemate|helpmate|selfmate)")(
      "half-moves", po::value(&half_moves), "help play: the half-moves instead of --depth (odd: h#N.5)")(
      "side", po::value(&side),
      "w|b: the side that moves first (help play: Black, Popeye's default; h#N.5 White)")(
      "notation", po::value(&notation), "san (default) or uci, for stipulations")(
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
  if (notation != "san" && notation != "uci")
    throw UsageError("--notation must be san or uci, not `" + notation + "`");
  const bool stip_goal = goal == "stalemate" || goal == "helpmate" || goal == "selfmate" ||
                         goal == "reflexmate" || (goal == "mate" && series);
  if (!stipulation.empty() || stip_goal) {
    arb::stip::Options so;
    if (!stipulation.empty()) {
      if (vm.count("goal") || series || !depth.empty() || !half_moves.empty())
        throw UsageError(
            "--stipulation says it all: give no --goal, --series, --depth or --half-moves with it");
      auto p = arb::stip::parse_stipulation(stipulation);
      if (!p)
        throw UsageError(
            "--stipulation `" + stipulation +
            "` is not one of #N =N h#N h#N.5 h=N s#N s=N r#N r=N ser-#N ser-=N ser-h#N ser-h=N ser-s#N "
            "ser-s=N (N 1.." +
            std::to_string(arb::stip::kMaxMoves) + ")");
      so.stip = *p;
    } else {
      using arb::stip::Play;
      so.stip.aim = goal == "stalemate" ? arb::stip::Aim::Stalemate : arb::stip::Aim::Mate;
      so.stip.play = goal == "helpmate"     ? Play::Help
                     : goal == "selfmate"   ? Play::Self
                     : goal == "reflexmate" ? Play::Reflex
                                            : Play::Direct;
      so.stip.series = series;
      if (series && so.stip.play == Play::Reflex)
        throw UsageError("--series does not combine with reflexmate");
      if (!half_moves.empty()) {
        if (so.stip.play != Play::Help || series)
          throw UsageError("--half-moves is for --goal helpmate only");
        if (!depth.empty()) throw UsageError("give --depth or --half-moves, not both");
        int h = static_cast<int>(int_option("half-moves", half_moves, 1, 2 * arb::stip::kMaxMoves + 1));
        so.stip.moves = h / 2;
        so.stip.half = h % 2 == 1;
      } else {
        if (depth.empty())
          throw UsageError("--depth N is required (the stipulation's moves, 1.." +
                           std::to_string(arb::stip::kMaxMoves) + ")");
        so.stip.moves = static_cast<int>(int_option("depth", depth, 1, arb::stip::kMaxMoves));
      }
    }
    if (!side.empty()) {
      if (side != "w" && side != "b") throw UsageError("--side must be w or b, not `" + side + "`");
      so.start = side == "w" ? arb::Color::White : arb::Color::Black;
    }
    if (!max_nodes.empty()) so.max_nodes = uint_option("max-nodes", max_nodes, 0, UINT64_MAX);
    if (!timeout.empty()) so.timeout = seconds_option("timeout", timeout, 0, kMaxTimeout);
    so.table_mb = static_cast<size_t>(int_option("hash", hash, 1, 65536));
    return solve_stipulation(c, so, notation == "uci", stipulation.empty() ? goal : so.stip.text());
  }
  if (series || !half_moves.empty() || !side.empty())
    throw UsageError(
        "--series, --half-moves and --side are for the stipulations (stalemate, helpmate, selfmate, "
        "reflexmate, --series mate)");
  arb::solve::Options o;
  if (goal == "win")
    o.goal = arb::solve::Goal::Win;
  else if (goal == "mate")
    o.goal = arb::solve::Goal::Mate;
  else if (goal == "draw")
    o.goal = arb::solve::Goal::Draw;
  else
    throw UsageError("--goal must be win, mate, draw, stalemate, helpmate, selfmate or reflexmate, not `" +
                     goal + "`");
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
  // Text for people, or with --json one object and nothing else.
  if (!c.json) {
    switch (r.outcome) {
      case Outcome::Proved:
        std::cout << what << " in " << r.moves << " (forced; none in fewer";
        if (r.moves > 1) std::cout << ": proved to depth " << r.proved_none_within;
        std::cout << ")\n";
        break;
      case Outcome::None:
        std::cout << "none: no forced " << what << " within " << o.depth << " move"
                  << (o.depth > 1 ? "s" : "") << " (proved)";
        if (!r.why.empty()) std::cout << "; " << r.why;
        std::cout << "\n";
        break;
      case Outcome::Unknown:
        std::cout << "unknown within budget: " << r.why << "; no forced " << what << " within "
                  << r.proved_none_within << " move" << (r.proved_none_within == 1 ? "" : "s")
                  << " (proved)\n";
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
  }
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
         ",\"proved_none_within\":" + std::to_string(r.proved_none_within) +
         ",\"proved_none_below\":" + std::to_string(r.proved_none_within + 1);
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
