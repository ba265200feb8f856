// arbiter proofgame: the shortest game from a position (the ruleset's start by default) to
// a goal (a mate, a stalemate, a draw, a win, no legal move, a status reason), found by
// search and proved shortest by exhaustive iterative deepening (solver/proofgame/),
// replayed move by move on the compiled generator and on the variant's reference engine
// before it is printed.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <new>
#include <sstream>

#include "arbiter/proofgame.hpp"
#include "arbiter/synth/diagram.hpp"
#include "common.hpp"
#include "registry/variants.hpp"

namespace arb::cli {

namespace {

// "1. a3 c4 2. Kc2 ..." with Black's first turn `1... x` when the start has Black to move.
std::string numbered(const std::vector<std::string>& san, bool white_first, int fullmove) {
  std::string o;
  bool white = white_first;
  for (size_t i = 0; i < san.size(); ++i) {
    if (white)
      o += (o.empty() ? "" : " ") + std::to_string(fullmove) + ". ";
    else if (i == 0)
      o += std::to_string(fullmove) + "... ";
    else
      o += " ";
    o += san[i];
    if (!white) ++fullmove;
    white = !white;
  }
  return o;
}

}  // namespace

int cmd_proofgame(const std::vector<std::string>& args) {
  Common c;
  std::string goal = "draw", side, notation = "san", max_plies = "8", beam = "300", max_nodes, timeout,
              hash = "64", svg;
  bool no_filter = false;
  po::options_description d(
      "arbiter proofgame [--variant V | --rules F] [--position P | --seed S] [--goal G] [--side w|b]\n"
      "                  [--max-plies N] [--beam W] [--max-nodes N] [--timeout S] [--notation san|uci]\n"
      "                  [--json] [--svg FILE]\n"
      "The shortest game from the position (default: the start) to the goal: mate (status\n"
      "checkmate), stalemate (no legal move, not in check, game over), draw (any drawn end,\n"
      "the default), win (any decided end), no-legal-move (whatever the verdict) or\n"
      "reason:NAME (an end with that status reason, e.g. reason:royal-capture). --side names\n"
      "the winner (mate, win, reason); without it either side may win. Both sides cooperate.\n"
      "A beam search finds a game, an exhaustive iterative deepening proves no shorter one\n"
      "exists (every draw of cards or tiles fixed: a chance node is refused, exit 2).\n"
      "Every turn is replayed on the compiled generator and on the reference engine.\n"
      "Exit 0: shortest proved, or none within --max-plies proved; 3: a game found but not\n"
      "proved shortest within the budget (or nothing found); 1 a replay failed; 2 bad input");
  add_common(d, c);
  d.add_options()("goal", po::value(&goal),
                  "mate, stalemate, draw (default), win, no-legal-move or reason:NAME")(
      "side", po::value(&side), "the winner the goal needs: w or b (mate, win, reason:NAME)")(
      "notation", po::value(&notation), "the game line in san (default) or uci")(
      "max-plies", po::value(&max_plies), "the proof searches up to N plies (1..60, default 8)")(
      "beam", po::value(&beam), "beam width of the upper-bound phase (0: none; default 300)")(
      "max-nodes", po::value(&max_nodes), "node budget of the proof phase (0: none)")(
      "timeout", po::value(&timeout), "seconds for both phases (0: none)")(
      "hash", po::value(&hash), "transposition table size in MiB (default 64)")(
      "svg", po::value(&svg), "write a diagram of the final position to FILE")(
      "no-filter", po::bool_switch(&no_filter),
      "apply every last turn instead of skipping those that provably leave a move (the filters run only "
      "where the rules and the goal allow them)");
  if (print_help(d, args, ", 3 the budget or --timeout ended the search before an answer")) return kOk;
  po::variables_map vm = parse_command_line(args, d);
  c.given(vm);
  proofgame::Options o;
  try {
    o.goal = proofgame::parse_goal(goal, side);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  if (notation != "san" && notation != "uci")
    throw UsageError("--notation must be `san` or `uci`, not `" + notation + "`");
  o.max_plies = static_cast<int>(int_option("max-plies", max_plies, 1, 60));
  o.beam_width = static_cast<int>(int_option("beam", beam, 0, 100000));
  if (vm.count("max-nodes")) o.max_nodes = uint_option("max-nodes", max_nodes, 0, UINT64_MAX);
  if (vm.count("timeout")) o.timeout = seconds_option("timeout", timeout, 0, kMaxTimeout);
  o.table_mb = static_cast<size_t>(int_option("hash", hash, 1, 65536));
  if (vm.count("svg")) check_output_path(svg, input_files(c), "svg");

  Loaded l = load_engine(c);
  if (!l.engine) return kBadInput;
  // The last-turn filters and the skipped end test are sound only for rules that meet
  // their conditions: asked of the compiled rules (for the reference engine, of the
  // bundled ruleset it plays).
  std::shared_ptr<const lang::Program> program = l.compiled.program;
  if (!program)
    if (auto v = registry::find(l.variant)) {
      lang::Diagnostics ignored;
      program = registry::compile(v->ruleset.string(), parse_sets(c.sets), ignored).program;
    }
  if (program) o.ends_with_moves = !proofgame::ends_only_without_moves(*program);
  if (!no_filter) {
    std::string why = "the rules do not compile";
    if (program) o.last_turn_filter = proofgame::goal_filters_apply(o.goal, *program, &why);
    if (!o.last_turn_filter)
      std::cerr << "arbiter proofgame: searching without the last-turn filters: " << why << "\n";
  }
  const std::string start = l.engine->position();
  // The plies searched of --max-plies are the share done (a rough ETA: deeper is slower).
  arb::ProgressLine bar("proofgame", "nodes", 0, progress_wanted(c.json));
  if (bar.on())
    o.progress = [&bar, &o](const proofgame::Progress& p) {
      bar.update(p.nodes, std::string(p.phase) + ", " + std::to_string(p.depth) + "/" +
                              std::to_string(o.max_plies) + " plies");
    };
  proofgame::Result r;
  try {
    r = proofgame::search(*l.engine, o);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  } catch (const std::bad_alloc&) {
    throw UsageError("--hash " + hash + ": cannot allocate a transposition table of " + hash +
                     " MiB on this machine (give a smaller --hash)");
  }
  bar.finish();

  // Every turn checked again: on a fresh compiled generator and on the reference engine.
  std::vector<std::string> checked;
  if (r.found) {
    std::unique_ptr<Engine> fresh = l.engine->clone();
    std::string err = proofgame::replay(*fresh, start, r.line, o.goal);
    if (!err.empty()) {
      std::cerr << "arbiter proofgame: the game does not replay: " << err << "\n";
      return kFailed;
    }
    checked.push_back(fresh->name());
    std::unique_ptr<Engine> ref;
    if (c.engine == "compiled") {
      // The reference that plays the ruleset, if any, replays the game too.
      registry::EngineSpec spec = engine_spec(c);
      spec.kind = registry::EngineKind::Reference;
      spec.position.clear();
      spec.seed.reset();
      try {
        lang::Diagnostics diags;
        ref = registry::open_engine(spec, diags).engine;
      } catch (const std::exception&) {
      }
    }
    if (ref && ref->name() != fresh->name()) {
      err = proofgame::replay(*ref, start, r.line, o.goal);
      if (!err.empty()) {
        std::cerr << "arbiter proofgame: the reference engine disagrees: " << err << "\n";
        return kFailed;
      }
      checked.push_back(ref->name());
    }
  }
  // The game as a person reads it: numbered from the start's move number, in --notation.
  const bool white_first = l.engine->side_to_move() == Color::White;
  int fullmove = 1;
  if (size_t sp = start.rfind(' '); sp != std::string::npos) {
    try {
      fullmove = std::max(1, std::stoi(start.substr(sp + 1)));
    } catch (const std::exception&) {
    }
  }
  const std::string game = numbered(notation == "san" ? r.san : r.line, white_first, fullmove);
  if (vm.count("svg") && r.found) {
    try {
      synth::Diagram dg = synth::parse_diagram(r.final_position);
      if (l.compiled.model) dg.names = synth::piece_names(*l.compiled.model);
      dg.notes.push_back({"Game", game});
      write_atomically(svg, synth::diagram_svg(dg, l.variant + ": " + o.goal.text() + " after " +
                                                       plural(r.plies, "ply", "plies")));
    } catch (const PositionError& e) {
      throw UsageError(std::string("cannot draw the final position: ") + e.what());
    }
  }

  std::ostringstream secs;
  secs.precision(3);
  secs << std::fixed << r.seconds;
  std::string result = r.shortest ? "shortest" : r.found ? "found" : r.why.empty() ? "none" : "unknown";
  std::string checked_by;
  for (const auto& n : checked) checked_by += (checked_by.empty() ? "" : ", ") + n;
  const std::string what =
      o.goal.text() +
      (o.goal.winner ? (*o.goal.winner == Color::White ? " (White wins)" : " (Black wins)") : "");
  // Text for people, or with --json one object and nothing else.
  if (!c.json && r.found) {
    auto plies = [](int n) { return plural(n, "ply", "plies"); };
    std::cout << what << " in " << plies(r.plies)
              << (r.shortest ? std::string(" (shortest: none in fewer, proved)")
                             : " (not proved shortest: " +
                                   (r.proved_none_within > 0
                                        ? "none within " + plies(r.proved_none_within) + " proved"
                                        : std::string("nothing shorter excluded yet")) +
                                   "; " + (r.why.empty() ? "raise --max-plies" : r.why) + ")")
              << "\n";
    std::cout << "game: " << game << "\n";
    std::cout << "uci: ";
    for (size_t i = 0; i < r.line.size(); ++i) std::cout << (i ? " " : "") << r.line[i];
    std::cout << "\nfinal: " << r.final_position << "\n";
    std::cout << "checked move by move on: " << checked_by << "\n";
  } else if (!c.json && result == "none") {
    std::cout << "none: no " << what << " within " << plural(r.proved_none_within, "ply", "plies")
              << " (proved)\n";
  } else if (!c.json) {
    std::cout << "unknown: " << r.why << "; "
              << (r.proved_none_within > 0
                      ? "no " + what + " within " + plural(r.proved_none_within, "ply", "plies") + " (proved)"
                      : std::string("nothing proved yet"))
              << "\n";
  }
  if (!c.json) {
    std::cout << "start: " << start << "\n";
    std::cout << "nodes " << r.beam_nodes + r.proof_nodes << " (beam " << r.beam_nodes << ", proof "
              << r.proof_nodes << ", table hits " << r.table_hits;
    if (r.filter) std::cout << ", last turns skipped by the filter " << r.filtered;
    if (r.check_pruned) std::cout << ", last turns skipped as giving no check " << r.check_pruned;
    std::cout << "), " << secs.str() << " s\n";
  } else {
    Json j = {{"result", result}, {"goal", o.goal.text()}};
    if (o.goal.winner) j["side"] = *o.goal.winner == Color::White ? "w" : "b";
    j["variant"] = l.variant;
    j["start"] = start;
    if (r.found) {
      j["plies"] = r.plies;
      j["moves"] = notation == "san" ? r.san : r.line;
      j["line"] = r.line;
      j["san"] = r.san;
      j["final"] = r.final_position;
      j["found_by"] = r.found_by;
      j["checked_by"] = checked;
    }
    j["proved_none_within"] = r.proved_none_within;
    j["proved_shortest"] = r.shortest;
    if (!r.why.empty()) j["why"] = r.why;
    j["depth_nodes"] = r.depth_nodes;
    j["nodes"] = r.beam_nodes + r.proof_nodes;
    j["beam_nodes"] = r.beam_nodes;
    j["proof_nodes"] = r.proof_nodes;
    j["filtered"] = r.filtered;
    j["check_pruned"] = r.check_pruned;
    j["seconds"] = std::round(r.seconds * 1000) / 1000;  // to the millisecond, as the text
    std::cout << json_text(j) << "\n";
  }
  return result == "shortest" || result == "none" ? kOk : kUnknown;
}

}  // namespace arb::cli
