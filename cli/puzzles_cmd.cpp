// `arbiter puzzles`: proved puzzles with a unique key, found by self-play (solver/puzzles).
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "arbiter/parallel.hpp"
#include "arbiter/puzzles.hpp"
#include "arbiter/stipulation.hpp"
#include "arbiter/synth/synth.hpp"
#include "arbiter/text_fields.hpp"
#include "common.hpp"
#include "moves.hpp"

namespace arb::cli {

namespace {

// `solution_san`: the solution in SAN (`writer` set to the puzzle's position).
Json puzzle_json(const arb::puzzles::Puzzle& p, Engine& writer) {
  std::vector<std::string> san = p.solution;
  try {
    writer.set_position(p.position);
    san = line_text(writer, p.solution, true);
  } catch (const std::exception&) {
  }
  Json o = {{"position", p.position}, {"goal", p.goal},       {"depth", p.depth},    {"solution", p.solution},
            {"solution_san", san},    {"variant", p.variant}, {"options", p.options}};
  // The tree is stored as JSON text (the puzzle file's tree column); a text that is not JSON
  // is passed on as a string rather than dropped.
  if (!p.tree.empty()) {
    Json tree = Json::parse(p.tree, nullptr, false);
    o["tree"] = tree.is_discarded() ? Json(p.tree) : tree;
  }
  return o;
}

}  // namespace

int cmd_puzzles(const std::vector<std::string>& args) {
  Common c;
  std::string goal = "mate", depth, count = "10", seed = "1", out, max_nodes = "100000", max_games = "5000",
              timeout;
  std::string from, material, window, base, pieces, jobs = "1", max_positions = "200000";
  std::string stipulation, notation = "uci";
  bool append = false, quiet_key = false, economy = false;
  po::options_description d(
      "arbiter puzzles --variant V --goal mate|win|draw --depth K --count N [--seed S] [--out FILE "
      "[--append]]\n"
      "                [--json]\n"
      "arbiter puzzles --variant V --stipulation #N|h#N|s#N|... [--quiet-key] [--economy] --count N ...\n"
      "arbiter puzzles --variant V --stipulation s#N [--from frame [--base FEN] [--pieces W/B]] [--jobs J] "
      "--count N\n"
      "Positions from self-play (s#N: built around a selfmate frame) whose goal in exactly K\n"
      "moves has a unique key, proved by the solver (--all-keys) and re-checked. Prints one CSV\n"
      "(position,goal,depth,solution,variant,options) unless --out names the file, written\n"
      "atomically. Exit 0 with N puzzles, 3 when the budget (--max-games, --max-positions,\n"
      "--timeout) ended with fewer (those found are written), 2 on unusable input");
  add_common(d, c, false);
  d.add_options()("goal", po::value(&goal), "mate (default), win or draw")(
      "depth", po::value(&depth), "K: the solving side's moves (1..60)")("count", po::value(&count),
                                                                         "N puzzles (default 10)")(
      "seed", po::value(&seed), "seed of self-play or of the frame positions (default 1)")(
      "out", po::value(&out), "write the puzzle file here (atomically)")(
      "notation", po::value(&notation),
      "the solution column in uci (default: a puzzle file is data, read back by `diagram --puzzles`, "
      "which shows SAN) or san")("append", po::bool_switch(&append),
                                 "keep the puzzles already in --out (new ones after them, no duplicates)")(
      "max-nodes", po::value(&max_nodes), "solver budget per position (default 100000 actions)")(
      "max-games", po::value(&max_games), "self-play games before giving up (default 5000)")(
      "timeout", po::value(&timeout), "seconds before giving up (0: none)")(
      "from", po::value(&from),
      "selfplay (default; frame for s#N), synth (Z3 mate-in-1 positions: --goal mate --depth 1) or frame "
      "(with --stipulation: pieces added at random to --base, each candidate proved)")(
      "base", po::value(&base),
      "with --from frame: the frame position (default Popeye's selfmate frame 8/8/8/8/8/kp6/p7/K7 w)")(
      "pieces", po::value(&pieces),
      "with --from frame: the letters of the pieces added, White's/Black's (default QRBNP/pnb in a game "
      "whose start holds them all, else the start's pieces less the frame's royals)")(
      "jobs", po::value(&jobs),
      "with --from frame: threads proving candidates (1; the same puzzles for any J)")(
      "max-positions", po::value(&max_positions),
      "with --from frame: positions built before giving up (default 200000)")(
      "material", po::value(&material), "with --from synth: exact material, e.g. \"KRB v K\"")(
      "window", po::value(&window), "with --from synth: WxH, the squares pieces may stand on")(
      "stipulation", po::value(&stipulation),
      "instead of --goal/--depth: any stipulation of `arbiter solve` (#2, h#2, s#3, ser-h#4, ...); one "
      "solution, none shorter, stored with its solution tree")(
      "quiet-key", po::bool_switch(&quiet_key), "with --stipulation: the key neither captures nor checks")(
      "economy", po::bool_switch(&economy),
      "with --stipulation: idle pieces taken off, then every piece left proved needed (its removal loses "
      "the solution, cooks it, changes it or makes the position illegal)");
  if (print_help(
          d, args,
          ", 3 fewer puzzles than --count when --max-games, --max-positions or --timeout ended the search"))
    return kOk;
  po::variables_map vm = parse_command_line(args, d);
  c.given(vm, false);
  arb::puzzles::Options o;
  if (!stipulation.empty()) {
    if (vm.count("goal") || vm.count("depth"))
      throw UsageError("--stipulation replaces --goal and --depth: give one or the other");
    auto st = arb::stip::parse_stipulation(stipulation);
    if (!st || st->moves < 1 || st->moves > arb::stip::kMaxMoves)
      throw UsageError("--stipulation: `" + stipulation +
                       "` is not a stipulation (#N, =N, h#N, h#N.5, s#N, r#N, ser-#N, ser-h#N, ...; N 1.." +
                       std::to_string(arb::stip::kMaxMoves) + ")");
    o.stipulation = st->text();
    o.quiet_key = quiet_key;
    o.economy = economy;
    goal = o.stipulation;
    depth = std::to_string(st->moves);
    o.depth = st->moves;
  } else {
    if (quiet_key || economy) throw UsageError("--quiet-key and --economy go with --stipulation");
    if (goal != "mate" && goal != "win" && goal != "draw")
      throw UsageError("--goal must be mate, win or draw, not `" + goal + "`");
    if (depth.empty()) throw UsageError("--depth K is required (the solving side's moves, 1..60)");
    o.depth = static_cast<int>(int_option("depth", depth, 1, arb::solve::kMaxDepth));
  }
  o.goal = goal;
  o.count = static_cast<int>(int_option("count", count, 1, 1000000));
  o.seed = uint_option("seed", seed, 0, UINT64_MAX);
  o.max_nodes = uint_option("max-nodes", max_nodes, 1, UINT64_MAX);
  o.max_games = uint_option("max-games", max_games, 1, UINT64_MAX);
  if (vm.count("timeout")) o.timeout = seconds_option("timeout", timeout, 0, kMaxTimeout);
  if (append && out.empty()) throw UsageError("--append needs --out FILE");
  // Selfmates are rare in game positions: s#N builds them around a frame unless a
  // position or a source is given.
  if (from.empty()) {
    auto st = arb::stip::parse_stipulation(o.stipulation);
    from = !o.stipulation.empty() && st->play == arb::stip::Play::Self && st->aim == arb::stip::Aim::Mate &&
                   !st->series && !c.position_given && c.moves.empty()
               ? "frame"
               : "selfplay";
  }
  if (from != "selfplay" && from != "synth" && from != "frame")
    throw UsageError("--from must be selfplay, synth or frame, not `" + from + "`");
  if (from == "frame" && o.stipulation.empty()) throw UsageError("--from frame goes with --stipulation");
  if (from == "frame" && (c.position_given || !c.moves.empty()))
    throw UsageError("--from frame builds positions around --base, not --position or --moves");
  if (from != "frame" &&
      (vm.count("base") || vm.count("pieces") || vm.count("jobs") || vm.count("max-positions")))
    throw UsageError("--base, --pieces, --jobs and --max-positions go with --from frame");
  if (vm.count("pieces")) {
    const size_t slash = pieces.find('/');
    bool ok = slash != std::string::npos && slash > 0 && pieces.find('/', slash + 1) == std::string::npos;
    for (size_t i = 0; ok && i < pieces.size(); ++i)
      ok = i == slash || (std::isalpha(static_cast<unsigned char>(pieces[i])) &&
                          (i < slash) == (std::isupper(static_cast<unsigned char>(pieces[i])) != 0));
    if (!ok)
      throw UsageError(
          "--pieces must be White's letters (upper case), `/`, Black's (lower case), e.g. QRBNP/pnb, not `" +
          pieces + "`");
  }
  o.frame = base;
  o.frame_pieces = pieces;
  o.jobs = static_cast<int>(int_option("jobs", jobs, 1, arb::kMaxJobs));
  o.max_frames = uint_option("max-positions", max_positions, 1, UINT64_MAX);
  if (from == "synth" && !stipulation.empty())
    throw UsageError("--from synth goes with --goal mate --depth 1");
  if (from == "synth" && (goal != "mate" || o.depth != 1))
    throw UsageError("--from synth makes mate-in-1 positions: it needs --goal mate --depth 1");
  if (from != "synth" && (!material.empty() || !window.empty()))
    throw UsageError("--material and --window go with --from synth");
  int window_w = 0, window_h = 0;
  if (!window.empty()) {
    size_t x = window.find_first_of("xX");
    if (x == std::string::npos) throw UsageError("--window must read WxH, e.g. 5x5");
    window_w = static_cast<int>(int_option("window", window.substr(0, x), 1, 64));
    window_h = static_cast<int>(int_option("window", window.substr(x + 1), 1, 64));
  }
  if (vm.count("out")) check_output_path(out, input_files(c), "out");
  o.shuffle_starts = !c.position_given && c.moves.empty();

  // The file --append adds to: read now to refuse a broken one before the search, and
  // read again under the lock when writing (another run may have added to it meanwhile).
  auto read_kept = [&](std::vector<arb::puzzles::Puzzle>& into) -> bool {
    into.clear();
    if (!append || !fs::exists(out)) return true;
    check_input_file(out, "puzzle file", 64 << 20);
    std::ifstream in(out, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    try {
      into = arb::puzzles::from_csv(ss.str());
    } catch (const std::invalid_argument& e) {
      std::cerr << out << ": " << e.what() << "\n";
      return false;
    }
    return true;
  };
  std::vector<arb::puzzles::Puzzle> kept;
  if (!read_kept(kept)) return kBadInput;

  Loaded l = load_engine(c);
  if (!l.engine) return kBadInput;
  o.mate_needs_check = wins_are_checkmates(l);
  // What the stipulation's qualities need of the position text, refused before the search.
  if (o.economy && arb::puzzles::pieces_of(l.engine->position()).empty())
    throw UsageError("--economy removes pieces from FEN-shaped boards; " + l.engine->name() +
                     "'s position text is not one");
  if (!o.stipulation.empty() && arb::stip::parse_stipulation(o.stipulation)->series) {
    const auto fields = arb::field_strings(l.engine->position());
    if (fields.size() < 2 || (fields[1] != "w" && fields[1] != "b"))
      throw UsageError("series play (" + o.stipulation + ") needs a position text with a w/b side field");
  }
  // Puzzles found of --count; the games played of --max-games bound the time left.
  arb::ProgressLine bar("puzzles", "found", static_cast<uint64_t>(o.count), progress_wanted(c.json));
  if (bar.on())
    o.progress = [&](const arb::puzzles::Stats& s, size_t found) {
      const double share =
          std::max(static_cast<double>(found) / std::max(o.count, 1),
                   o.max_games ? static_cast<double>(s.games) / static_cast<double>(o.max_games) : 0.0);
      if (from == "frame")
        bar.update(found,
                   std::to_string(s.built) + " built, " + std::to_string(s.positions) + " positions solved",
                   std::min(1.0, std::max(static_cast<double>(found) / std::max(o.count, 1),
                                          static_cast<double>(s.built) / static_cast<double>(o.max_frames))));
      else
        bar.update(found,
                   std::to_string(s.games) + " games, " + std::to_string(s.positions) + " positions solved",
                   std::min(1.0, share));
    };
  const bool san = san_notation(notation);
  std::unique_ptr<Engine> writer = l.engine->clone();  // writes SAN while l.engine searches
  if (c.json)
    o.found = [&](const arb::puzzles::Puzzle& p) {
      std::cout << json_text(puzzle_json(p, *writer)) << "\n" << std::flush;
    };
  arb::puzzles::Stats stats;
  std::vector<arb::puzzles::Puzzle> found;
  bool synth_timed_out = false;  // Z3 stopped at the deadline (--timeout) before enough positions
  if (from == "synth") {
    if (!l.compiled.program) throw UsageError("--from synth needs the compiled engine");
    // Z3's mate-in-1 positions for each side in turn (blocking clauses make them
    // distinct), three candidates per puzzle wanted: many have more than one mating move.
    std::vector<std::string> by_side[2];
    for (arb::Color side : {arb::Color::White, arb::Color::Black}) {
      arb::synth::Request q;
      q.goal = arb::synth::Goal::MateIn1;
      q.side = side;
      q.material = material;
      q.window_w = window_w;
      q.window_h = window_h;
      q.count = std::max(1, 3 * o.count / 2);
      q.timeout_seconds = o.timeout > 0 ? o.timeout / 2 : 0;
      arb::synth::Outcome so;
      try {
        so = arb::synth::synthesize(l.compiled.program, q);
      } catch (const std::invalid_argument& e) {
        throw UsageError(std::string("--from synth: ") + e.what());
      }
      synth_timed_out |= so.timed_out;
      for (const auto& f : so.found) by_side[side == arb::Color::White ? 0 : 1].push_back(f.position);
    }
    // White's and Black's alternately, so that both sides get puzzles.
    std::vector<std::string> positions;
    for (size_t i = 0; i < std::max(by_side[0].size(), by_side[1].size()); ++i)
      for (const auto& v : by_side)
        if (i < v.size()) positions.push_back(v[i]);
    found = arb::puzzles::select(*l.engine, positions, o, stats);
  } else if (from == "frame") {
    try {
      found = arb::puzzles::generate_frame(*l.engine, o, stats);
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--from frame: ") + e.what());
    }
  } else {
    found = arb::puzzles::generate(*l.engine, o, stats);
  }
  bar.finish();

  // Concurrent runs appending to one file: each merges and writes under an exclusive lock
  // on its folder, so that no run's puzzles are lost.
  std::unique_ptr<FileLock> lock;
  if (append && !out.empty()) {
    fs::create_directories(lock_path(out));
    lock = std::make_unique<FileLock>(lock_path(out));
    if (!read_kept(kept)) return kBadInput;
  }
  std::set<std::string> have;
  for (const auto& p : kept) have.insert(p.position + "\n" + p.goal + "\n" + std::to_string(p.depth));
  size_t added = 0;
  for (const auto& p : found)
    if (have.insert(p.position + "\n" + p.goal + "\n" + std::to_string(p.depth)).second) {
      kept.push_back(p);
      ++added;
    }
  if (san)
    for (auto& p : kept) {
      try {
        writer->set_position(p.position);
        p.solution = line_text(*writer, p.solution, true);
      } catch (const std::exception&) {
      }
    }
  std::string csv = arb::puzzles::to_csv(kept);
  if (!out.empty()) {
    write_atomically(out, csv);
  } else if (!c.json) {
    std::cout << csv;
  }
  lock.reset();
  std::ostringstream secs;
  secs.precision(3);
  secs << std::fixed << stats.seconds;
  std::cerr << "puzzles: " << found.size() << " of " << o.count << " found ("
            << (stipulation.empty() ? goal + " in " + plural(o.depth, "move") : o.stipulation) << ", "
            << (from == "synth"   ? std::string("Z3")
                : from == "frame" ? plural(stats.built, "frame position") + " built"
                                  : plural(stats.games, "game"))
            << ", " << plural(stats.positions, "position") << " solved, " << stats.unknown
            << " unknown within the budget, " << secs.str() << " s)";
  if (!out.empty())
    std::cerr << "; " << added << " new written to " << out << " (" << kept.size() << " in all)";
  // Why fewer than asked for (exit 3): the clock or the game budget, said.
  if (found.size() < static_cast<size_t>(o.count)) {
    if (synth_timed_out)
      std::cerr << "; Z3 stopped at --timeout";
    else if (o.timeout > 0 && stats.seconds >= o.timeout)
      std::cerr << "; stopped at --timeout";
    else if (from == "frame" && stats.built >= o.max_frames)
      std::cerr << "; stopped at --max-positions " << o.max_frames;
    else if (from == "selfplay" && stats.games >= o.max_games)
      std::cerr << "; stopped at --max-games " << o.max_games;
  }
  std::cerr << "\n";
  if (c.json) {
    Json j = {{"found", found.size()},
              {"requested", o.count},
              {"games", stats.games},
              {"built", stats.built},
              {"positions", stats.positions},
              {"unknown", stats.unknown},
              {"seconds", std::round(stats.seconds * 1000) / 1000}};  // to the millisecond, as the text
    if (!out.empty()) j["out"] = out;
    j["written"] = added;
    std::cout << json_text(j) << "\n";
  }
  return found.size() < static_cast<size_t>(o.count) ? kUnknown : kOk;
}

}  // namespace arb::cli
