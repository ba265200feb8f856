// `arbiter solve`: forced wins, mates and draws within N moves (solver/).
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <mutex>
#include <new>
#include <sstream>

#include "arbiter/parallel.hpp"
#include "arbiter/popeye_input.hpp"
#include "arbiter/solver.hpp"
#include "arbiter/stipulation.hpp"
#include "common.hpp"
#include "moves.hpp"

namespace arb::cli {

namespace {

std::string join(const std::vector<std::string>& v) {
  std::string o;
  for (const auto& s : v) o += (o.empty() ? "" : " ") + s;
  return o;
}

Json json_nodes(const std::vector<arb::stip::TreeNode>& v);
Json json_node(const arb::stip::TreeNode& n) {
  Json j = {{"uci", n.uci}, {"san", n.san}};
  if (n.dual) j["dual"] = true;
  if (!n.next.empty()) j["next"] = json_nodes(n.next);
  return j;
}
Json json_nodes(const std::vector<arb::stip::TreeNode>& v) {
  Json j = Json::array();
  for (const auto& n : v) j.push_back(json_node(n));
  return j;
}

// Seconds for machines, to the microsecond: a mate in 3 takes about a millisecond, and the
// benchmark's medians and their ratios were rounded to it.
double micros(double seconds) {
  return std::round(seconds * 1e6) / 1e6;
}

// A solution tree as problemists print it: `1...d 2.a` per defence, deeper play indented.
void print_answers(const std::vector<arb::stip::TreeNode>& defences, int num, const std::string& indent,
                   bool uci) {
  for (const auto& d : defences) {
    std::string line = indent + std::to_string(num) + "..." + (uci ? d.uci : d.san);
    for (size_t i = 0; i < d.next.size(); ++i)
      line += (i ? ", " : " ") + std::to_string(num + 1) + "." + (uci ? d.next[i].uci : d.next[i].san);
    if (d.next.size() > 1) line += " (dual)";
    std::cout << line << "\n";
    if (!d.next.empty()) print_answers(d.next[0].next, num + 1, indent + "  ", uci);
  }
}

Json json_line(const arb::stip::Line& l) {
  Json j = {{"moves", l.moves}, {"uci", l.uci}, {"san", l.san}};
  if (!l.defences.empty() || !l.threat.empty() || l.zugzwang) {
    j["threat"] = json_nodes(l.threat);
    j["zugzwang"] = l.zugzwang;
    j["defences"] = json_nodes(l.defences);
  }
  return j;
}

const char* result_word(const arb::stip::Result& r) {
  using arb::stip::Outcome;
  return r.outcome == Outcome::Unknown ? "unknown"
         : !r.solutions.empty()        ? "solved"
         : r.shorter.empty()           ? "none"
                                       : "shorter";
}

// One problem's answer as one JSON object.
// `j` holds the fields to put first (solve --epd: the problem's line and position).
Json stip_json(const arb::stip::Result& r, const arb::stip::Options& o, const std::string& goal,
               Json j = Json::object()) {
  j["result"] = result_word(r);
  j["stipulation"] = o.stip.text();
  j["goal"] = goal;
  j["start"] = r.start == arb::Color::White ? "white" : "black";
  j["solutions"] = Json::array();
  for (const auto& l : r.solutions) j["solutions"].push_back(json_line(l));
  j["shorter"] = Json::array();
  for (const auto& l : r.shorter) j["shorter"].push_back(json_line(l));
  if (o.tries > 0) {
    j["tries"] = Json::array();
    for (const auto& t : r.tries)
      j["tries"].push_back({{"uci", t.uci},
                            {"san", t.san},
                            {"refutations_uci", t.refutations_uci},
                            {"refutations_san", t.refutations_san}});
  }
  j["proved_none_below"] = r.proved_none_below;
  if (!r.why.empty()) j["why"] = r.why;
  j["nodes"] = r.nodes;
  j["seconds"] = micros(r.seconds);
  if (!r.threads.empty()) {
    // --jobs on one problem: how the split went (not part of the answer; varies run to run).
    j["split_seconds"] = micros(r.split_seconds);
    j["threads"] = Json::array();
    for (const auto& t : r.threads)
      j["threads"].push_back({{"nodes", t.nodes},
                              {"busy", micros(t.busy)},
                              {"cpu", micros(t.cpu)},
                              {"helped", t.helped},
                              {"abandoned", t.abandoned},
                              {"dropped", t.dropped}});
  }
  return j;
}

// One problem's answer for people.
void stip_text(const arb::stip::Result& r, const arb::stip::Options& o, bool uci) {
  using arb::stip::Outcome;
  const std::string st = o.stip.text();
  const char* side = r.start == arb::Color::White ? "white" : "black";
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
  auto tree = [&](const arb::stip::Line& line) {
    if (!o.tree) return;
    if (line.zugzwang) std::cout << "    zugzwang\n";
    for (const auto& t : line.threat)
      std::cout << "    threat: 2." << (uci ? t.uci : t.san) << (line.threat.size() > 1 ? " (dual)" : "")
                << "\n";
    print_answers(line.defences, 1, "    ", uci);
  };
  for (const auto& line : r.solutions) {
    std::cout << (o.tree ? "  1." + (uci ? line.uci[0] : line.san[0]) + "!" : show(line)) << "\n";
    tree(line);
  }
  if (!r.shorter.empty()) {
    std::cout << "shorter:\n";
    for (const auto& line : r.shorter) {
      if (o.tree) {
        std::cout << "  1." << (uci ? line.uci[0] : line.san[0]) << "! (in " << line.moves << ")\n";
        tree(line);
        continue;
      }
      std::string t = show(line);
      if (!keyed)
        t += "  (" + std::string(o.stip.series ? "ser-" : "") + std::to_string(line.moves) +
             (o.stip.half ? ".5" : "") + ")";
      std::cout << t << "\n";
    }
  }
  if (!r.tries.empty()) {
    std::cout << "tries:\n";
    for (const auto& t : r.tries) {
      std::cout << "  1." << (uci ? t.uci : t.san) << "? but";
      const auto& refs = uci ? t.refutations_uci : t.refutations_san;
      for (size_t i = 0; i < refs.size(); ++i) std::cout << (i ? ", " : " ") << "1..." << refs[i] << "!";
      std::cout << "\n";
    }
  }
  if (r.outcome != Outcome::Unknown)
    std::cout << "none shorter than " << r.proved_none_below << (o.stip.half ? ".5" : "") << " (proved)\n";
  std::cout << "nodes " << r.nodes << ", " << std::fixed << std::setprecision(3) << r.seconds << " s\n";
}

// The composer's stipulations (solver/include/arbiter/stipulation.hpp).
int solve_stipulation(const Common& c, const arb::stip::Options& o, bool uci, const std::string& goal) {
  Loaded l = load_engine(c);
  if (!l.engine) return kBadInput;
  arb::stip::Options opt = o;
  opt.mate_needs_check = wins_are_checkmates(l);
  // The node count has no total: the line gives the rate and the time so far.
  arb::ProgressLine bar("solve", "nodes", 0, progress_wanted(c.json));
  if (bar.on())
    opt.progress = [&bar](uint64_t nodes, double secs) {
      bar.update(nodes, std::to_string(static_cast<int>(secs)) + " s");
    };
  arb::stip::Result r;
  try {
    r = arb::stip::solve(*l.engine, opt);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  bar.finish();
  if (c.json)
    std::cout << json_text(stip_json(r, o, goal)) << "\n";
  else
    stip_text(r, o, uci);
  return r.outcome == arb::stip::Outcome::Unknown ? kUnknown : kOk;
}

// One problem of a batch: where it is, its position and stipulation.
struct Problem {
  int line = 0;
  std::string position;
  arb::stip::Stipulation stip;
  std::optional<arb::Color> start;  // Popeye input: who starts, as its options say
  int tries = 0;                    // Popeye input: Option Try
};

// A batch file: one problem a line (arb::stip::parse_batch_line). A stipulation on the
// command line overrides the lines'.
std::vector<Problem> read_batch(const std::string& path, const std::optional<arb::stip::Stipulation>& fixed) {
  check_input_file(path, "--epd", size_t{256} << 20);
  std::ifstream in(path);
  if (!in) throw UsageError("--epd: cannot read `" + path + "`");
  std::vector<Problem> out;
  int no = 0;
  for (std::string raw; std::getline(in, raw);) {
    ++no;
    std::optional<arb::stip::BatchLine> b;
    try {
      b = arb::stip::parse_batch_line(raw, fixed);
    } catch (const std::invalid_argument& e) {
      throw UsageError(path + ":" + std::to_string(no) + ":1: " + e.what());
    }
    if (!b) continue;
    Problem p;
    p.line = no;
    p.position = b->position;
    p.stip = b->stip;
    out.push_back(p);
  }
  if (out.empty()) throw UsageError("--epd: `" + path + "` holds no problem");
  return out;
}

// `arbiter solve --epd FILE`: every problem, --jobs at a time, a progress line on a
// terminal, then the answers in file order and a summary per stipulation.
// Popeye's input language (solver/include/arbiter/popeye_input.hpp).
std::vector<Problem> read_popeye_file(const std::string& path) {
  check_input_file(path, "--popeye", size_t{64} << 20);
  std::ifstream in(path);
  if (!in) throw UsageError("--popeye: cannot read `" + path + "`");
  std::stringstream ss;
  ss << in.rdbuf();
  std::vector<Problem> out;
  try {
    for (const auto& p : arb::stip::read_popeye(ss.str())) {
      const bool keyed = !p.stip.series && p.stip.play != arb::stip::Play::Help;
      out.push_back(Problem{p.line, p.position, p.stip, p.start, p.tries && keyed ? 1 : 0});
    }
  } catch (const arb::stip::PopeyeError& e) {
    throw UsageError(path + ":" + std::to_string(e.line) + ":" + std::to_string(e.column) + ": " + e.what());
  }
  if (out.empty()) throw UsageError("--popeye: `" + path + "` holds no problem");
  return out;
}

int solve_batch(const Common& c, const std::string& path, std::vector<Problem> problems,
                const arb::stip::Options& base, bool uci, int jobs) {
  Loaded l = load_engine(c);
  if (!l.engine) return kBadInput;
  // Every position loads before any search starts: a bad line is reported at once.
  for (const auto& p : problems) {
    try {
      l.engine->set_position(p.position);
    } catch (const arb::PositionError& e) {
      throw UsageError(path + ":" + std::to_string(p.line) + ":" + std::to_string(e.column + 1) + ": " +
                       e.what());
    }
  }
  arb::stip::Options base_opts = base;
  base_opts.mate_needs_check = wins_are_checkmates(l);
  std::vector<arb::stip::Result> results(problems.size());
  std::vector<std::string> errors(problems.size());
  std::atomic<size_t> next{0}, done{0};
  arb::ProgressLine bar("solve", "problems", problems.size(), progress_wanted(c.json));
  const auto t0 = std::chrono::steady_clock::now();
  arb::parallel_for(std::min<int>(jobs, static_cast<int>(problems.size())), [&](int, std::stop_token stop) {
    auto e = l.engine->clone();
    for (size_t i; !stop.stop_requested() && (i = next.fetch_add(1)) < problems.size();) {
      arb::stip::Options o = base_opts;
      o.stip = problems[i].stip;
      if (problems[i].start) o.start = problems[i].start;
      o.tries = std::max(o.tries, problems[i].tries);
      e->set_position(problems[i].position);
      try {
        results[i] = arb::stip::solve(*e, o);
      } catch (const std::invalid_argument& x) {
        errors[i] = x.what();
      }
      bar.update(++done);
    }
  });
  bar.finish();
  struct Tally {
    int problems = 0, solved = 0, shorter = 0, none = 0, unknown = 0;
    double seconds = 0;
  };
  std::map<std::string, Tally> tally;
  bool unknown = false;
  for (size_t i = 0; i < problems.size(); ++i) {
    if (!errors[i].empty())
      throw UsageError(path + ":" + std::to_string(problems[i].line) + ":1: " + errors[i]);
    const auto& r = results[i];
    arb::stip::Options o = base;
    o.stip = problems[i].stip;
    o.tries = std::max(o.tries, problems[i].tries);
    Tally& t = tally[o.stip.text()];
    ++t.problems;
    t.seconds += r.seconds;
    const std::string w = result_word(r);
    if (w == "solved") ++t.solved;
    if (w == "shorter") ++t.shorter;
    if (w == "none") ++t.none;
    if (w == "unknown") ++t.unknown, unknown = true;
    if (c.json) {
      std::cout << json_text(stip_json(r, o, o.stip.text(),
                                       {{"line", problems[i].line}, {"position", problems[i].position}}))
                << "\n";
    } else {
      std::cout << path << ":" << problems[i].line << ": " << problems[i].position << "\n";
      stip_text(r, o, uci);
    }
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (c.json) {
    Json j = {{"summary", Json::array()}};
    for (const auto& [st, t] : tally)
      j["summary"].push_back({{"stipulation", st},
                              {"problems", t.problems},
                              {"solved", t.solved},
                              {"shorter", t.shorter},
                              {"none", t.none},
                              {"unknown", t.unknown},
                              {"seconds", micros(t.seconds)}});
    j["problems"] = problems.size();
    j["seconds"] = micros(secs);
    std::cout << json_text(j) << "\n";
  } else {
    std::cout << "summary (" << problems.size() << " problems, " << std::fixed << std::setprecision(3) << secs
              << " s):\n";
    for (const auto& [st, t] : tally)
      std::cout << "  " << st << ": " << t.problems << " problems, " << t.solved << " solved, " << t.shorter
                << " shorter only, " << t.none << " none, " << t.unknown << " unknown, " << t.seconds
                << " s\n";
  }
  return unknown ? kUnknown : kOk;
}

}  // namespace

int cmd_solve(const std::vector<std::string>& args) {
  Common c;
  std::string goal = "win", chance = "known", depth, max_nodes, timeout, jobs = "1", hash = "64",
              search = "pn";
  std::string stipulation, half_moves, side, notation = "san";
  std::string tries, epd, popeye;
  bool all_keys = false, series = false, tree = false;
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
      "notation", po::value(&notation), "the moves printed: san (default) or uci")(
      "epd", po::value(&epd),
      "a batch: one problem a line, `POSITION;STIPULATION` or EPD (`bm #N;`, `dm N;`, `stip X;`)")(
      "popeye", po::value(&popeye),
      "a batch in Popeye's input language, the orthodox subset (Pieces, Stipulation, Option NoCastling "
      "EnPassant HalfDuplex WhiteToPlay Try)")(
      "tree", po::bool_switch(&tree),
      "direct, self and reflex play: each key's threat or zugzwang, defences, duals")(
      "tries", po::value(&tries)->implicit_value("1"),
      "direct and self play: the first moves refuted by at most K defences (default 1)")(
      "depth", po::value(&depth), "N: the side to move's moves (1..60)")(
      "all-keys", po::bool_switch(&all_keys), "list every first move that forces it")(
      "chance", po::value(&chance), "known (default: the position fixes every draw), adversarial, expected")(
      "max-nodes", po::value(&max_nodes), "node budget (actions applied; 0: none)")(
      "timeout", po::value(&timeout), "seconds before `unknown within budget` (0: none)")(
      "jobs", po::value(&jobs), "threads splitting the root moves (default 1; a batch: problems at once)")(
      "hash", po::value(&hash), "transposition table size in MiB (default 64)")(
      "search", po::value(&search), "pn (df-pn, default) or ab (depth-limited alpha-beta)");
  if (print_help(d, args)) {
    std::cout << "solve: 0 proved (a win/draw in N, or none within N), 3 unknown within the budget\n";
    return kOk;
  }
  po::variables_map vm = parse_command_line(args, d);
  c.given(vm);
  const bool san = san_notation(notation);
  const bool stip_goal = goal == "stalemate" || goal == "helpmate" || goal == "selfmate" ||
                         goal == "reflexmate" || (goal == "mate" && series);
  if (!popeye.empty()) {
    if (!epd.empty() || !stipulation.empty() || vm.count("goal") || !depth.empty() || !half_moves.empty() ||
        series || !side.empty() || tree || !tries.empty() || c.position_given)
      throw UsageError(
          "--popeye FILE states each problem: give no --epd, --position, --stipulation, --goal, "
          "--depth, --half-moves, --series, --side, --tree or --tries with it");
    arb::stip::Options so;
    if (!max_nodes.empty()) so.max_nodes = uint_option("max-nodes", max_nodes, 0, UINT64_MAX);
    if (!timeout.empty()) so.timeout = seconds_option("timeout", timeout, 0, kMaxTimeout);
    so.table_mb = static_cast<size_t>(int_option("hash", hash, 1, 65536));
    return solve_batch(c, popeye, read_popeye_file(popeye), so, !san,
                       static_cast<int>(int_option("jobs", jobs, 1, arb::kMaxJobs)));
  }
  if (!epd.empty() && (tree || !tries.empty()))
    throw UsageError("--tree and --tries are for one problem, not --epd");
  const bool per_line = !epd.empty() && stipulation.empty() && !stip_goal && !vm.count("goal");
  if (!epd.empty() && !per_line && !stip_goal && stipulation.empty() && goal != "mate")
    throw UsageError(
        "--epd solves stipulations: --stipulation, --goal mate|stalemate|helpmate|selfmate|reflexmate, "
        "or one stipulation per line");
  if (!stipulation.empty() || stip_goal || !epd.empty()) {
    arb::stip::Options so;
    if (per_line) {
      if (series || !depth.empty() || !half_moves.empty())
        throw UsageError("--series, --depth and --half-moves need a --goal");
    } else if (!stipulation.empty()) {
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
    so.tree = tree;
    if (!tries.empty()) so.tries = static_cast<int>(int_option("tries", tries, 1, 100));
    if ((tree || so.tries) && (so.stip.series || so.stip.play == arb::stip::Play::Help))
      throw UsageError("--tree and --tries are for keyed play (#N, =N, s#N, s=N, r#N, r=N)");
    if (so.tries && so.stip.play == arb::stip::Play::Reflex)
      throw UsageError("--tries is for direct and self play");
    if (!max_nodes.empty()) so.max_nodes = uint_option("max-nodes", max_nodes, 0, UINT64_MAX);
    if (!timeout.empty()) so.timeout = seconds_option("timeout", timeout, 0, kMaxTimeout);
    so.table_mb = static_cast<size_t>(int_option("hash", hash, 1, 65536));
    if (!epd.empty())
      return solve_batch(c, epd, read_batch(epd, per_line ? std::nullopt : std::optional(so.stip)), so, !san,
                         static_cast<int>(int_option("jobs", jobs, 1, arb::kMaxJobs)));
    // One problem: --jobs splits its first moves (a batch runs one problem a thread instead).
    so.jobs = static_cast<int>(int_option("jobs", jobs, 1, arb::kMaxJobs));
    return solve_stipulation(c, so, !san, stipulation.empty() ? goal : so.stip.text());
  }
  if (series || !half_moves.empty() || !side.empty() || tree || !tries.empty())
    throw UsageError(
        "--series, --half-moves, --side, --tree and --tries are for the stipulations (stalemate, helpmate, "
        "selfmate, reflexmate, --series mate, --stipulation)");
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
  o.jobs = static_cast<int>(int_option("jobs", jobs, 1, arb::kMaxJobs));
  o.table_mb = static_cast<size_t>(int_option("hash", hash, 1, 65536));
  o.all_keys = all_keys;
  if (search != "pn" && search != "ab") throw UsageError("--search must be pn or ab, not `" + search + "`");
  o.proof_numbers = search == "pn";

  Loaded l = load_engine(c);
  if (!l.engine) return kBadInput;
  // Iterative deepening: the depth reached of --depth is the share done (a rough ETA).
  arb::ProgressLine bar("solve", "nodes", 0, progress_wanted(c.json));
  if (bar.on())
    o.progress = [&bar, &o](const arb::solve::Progress& p) {
      bar.update(p.nodes, "depth " + std::to_string(p.depth) + "/" + std::to_string(o.depth));
    };
  arb::solve::Result r;
  try {
    r = arb::solve::solve(*l.engine, o);
  } catch (const std::bad_alloc&) {
    throw UsageError("--hash " + hash + ": cannot allocate a transposition table of " + hash +
                     " MiB on this machine (give a smaller --hash)");
  }
  bar.finish();

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
        std::cout << "none: no forced " << what << " within " << plural(o.depth, "move") << " (proved)";
        if (!r.why.empty()) std::cout << "; " << r.why;
        std::cout << "\n";
        break;
      case Outcome::Unknown:
        std::cout << "unknown within budget: " << r.why << "; "
                  << (r.proved_none_within > 0 ? "no forced " + std::string(what) + " within " +
                                                     plural(r.proved_none_within, "move") + " (proved)"
                                               : std::string("nothing proved yet"))
                  << "\n";
        break;
      case Outcome::Chance:
        std::cout << "probability " << r.probability << " that best play forces a " << what << " within "
                  << plural(o.depth, "move") << " (expectimax over the draws)\n";
        break;
    }
    if (!r.line.empty()) std::cout << "line: " << join(line_text(*l.engine, r.line, san)) << "\n";
    if (o.all_keys && (r.outcome == Outcome::Proved || r.outcome == Outcome::Chance)) {
      std::vector<std::string> keys;
      for (const auto& k : r.keys) keys.push_back(line_text(*l.engine, std::vector<std::string>{k}, san)[0]);
      std::cout << "keys (" << r.keys.size() << "): " << join(keys)
                << (r.why.empty() ? "" : " (" + r.why + ")") << "\n";
    }
    std::cout << "nodes " << r.nodes << ", " << secs.str() << " s\n";
  }
  if (c.json) {
    Json j = {{"result", result}};
    if (r.outcome == Outcome::Proved || (r.outcome == Outcome::Chance && r.probability > 0))
      j["moves"] = r.moves;
    j["line"] = r.line;
    if (o.all_keys) j["keys"] = r.keys;
    j["line_san"] = line_text(*l.engine, r.line, true);
    if (r.outcome == Outcome::Chance) j["probability"] = r.probability;  // round-trip precision
    j["goal"] = goal;
    j["depth"] = o.depth;
    j["proved_none_within"] = r.proved_none_within;
    j["proved_none_below"] = r.proved_none_within + 1;
    if (!r.why.empty()) j["why"] = r.why;
    j["nodes"] = r.nodes;
    j["seconds"] = micros(r.seconds);
    std::cout << json_text(j) << "\n";
  }
  return r.outcome == Outcome::Unknown ? kUnknown : kOk;
}

}  // namespace arb::cli
