// arbiter proofgame: the shortest game from a position (the ChessMe start by default) to a
// no-legal-move draw, found by search and proved shortest by exhaustive iterative
// deepening (solver/proofgame/), replayed move by move on the compiled generator and on
// the variant's reference engine before it is printed.
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <sstream>

#include "arbiter/proofgame.hpp"
#include "arbiter/synth/diagram.hpp"
#include "common.hpp"
#include "registry/variants.hpp"

namespace arb::cli {

namespace {

std::string json_list(const std::vector<std::string>& v) {
  std::string o = "[";
  for (size_t i = 0; i < v.size(); ++i) o += (i ? ",\"" : "\"") + json_escape(v[i]) + "\"";
  return o + "]";
}

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
  std::string goal = "draw", max_plies = "8", beam = "300", max_nodes, timeout, hash = "64", svg;
  bool no_filter = false;
  po::options_description d(
      "arbiter proofgame [--variant V | --rules F] [--position P | --seed S] --goal draw\n"
      "                  [--max-plies N] [--beam W] [--max-nodes N] [--timeout S] [--json] [--svg FILE]\n"
      "The shortest game from the position (default: the start) to a no-legal-move draw (the\n"
      "side to move not in check and without a legal action; ChessMe's draw). Both sides\n"
      "cooperate. A beam search finds a game, an exhaustive iterative deepening proves no\n"
      "shorter one exists (every pile order known: the start's piles follow from the seed).\n"
      "Every turn is replayed on the compiled generator and on the reference engine.\n"
      "Exit 0: shortest proved, or none within --max-plies proved; 3: a game found but not\n"
      "proved shortest within the budget (or nothing found); 1 a replay failed; 2 bad input");
  add_common(d, c);
  d.add_options()("goal", po::value(&goal), "draw (the no-legal-move draw; the only goal so far)")(
      "max-plies", po::value(&max_plies), "the proof searches up to N plies (1..60, default 8)")(
      "beam", po::value(&beam), "beam width of the upper-bound phase (0: none; default 300)")(
      "max-nodes", po::value(&max_nodes), "node budget of the proof phase (0: none)")(
      "timeout", po::value(&timeout), "seconds for both phases (0: none)")(
      "hash", po::value(&hash), "transposition table size in MiB (default 64)")(
      "svg", po::value(&svg), "write a diagram of the final position to FILE")(
      "no-filter", po::bool_switch(&no_filter),
      "apply every last turn instead of skipping those that provably leave a move (the filters run only "
      "where the rules allow them: ChessMe's do)");
  if (print_help(d, args)) return kOk;
  po::variables_map vm = parse_command_line(args, d);
  c.given(vm);
  if (goal != "draw") throw UsageError("--goal must be `draw` (the no-legal-move draw), not `" + goal + "`");
  proofgame::Options o;
  o.max_plies = static_cast<int>(int_option("max-plies", max_plies, 1, 60));
  o.beam_width = static_cast<int>(int_option("beam", beam, 0, 100000));
  if (!max_nodes.empty()) o.max_nodes = uint_option("max-nodes", max_nodes, 0, UINT64_MAX);
  if (!timeout.empty()) o.timeout = seconds_option("timeout", timeout, 0, kMaxTimeout);
  o.table_mb = static_cast<size_t>(int_option("hash", hash, 1, 65536));
  if (!svg.empty()) check_output_path(svg, {}, "svg");

  Loaded l = load_engine(c);
  if (!l.engine) return kBadInput;
  // The last-turn filters are sound only for rules that meet their conditions: asked of the
  // compiled rules (for the reference engine, of the bundled ruleset it plays).
  if (!no_filter) {
    std::string why = "the rules do not compile";
    if (l.compiled.program) {
      o.last_turn_filter = proofgame::witness_filters_apply(*l.compiled.program, &why);
    } else if (auto v = registry::find(l.variant)) {
      lang::Diagnostics ignored;
      lang::Compiled rules = registry::compile(v->ruleset.string(), parse_sets(c.sets), ignored);
      if (rules.program) o.last_turn_filter = proofgame::witness_filters_apply(*rules.program, &why);
    }
    if (!o.last_turn_filter)
      std::cerr << "arbiter proofgame: searching without the last-turn filters: " << why << "\n";
  }
  const std::string start = l.engine->position();
  bool tty = isatty(2);
  if (tty)
    o.progress = [](const proofgame::Progress& p) {
      std::fprintf(stderr, "\rproofgame: %s, %d plies, %llu nodes, %.1f s, %.0f nodes/s   ", p.phase, p.depth,
                   static_cast<unsigned long long>(p.nodes), p.seconds,
                   p.seconds > 0 ? p.nodes / p.seconds : 0.0);
      std::fflush(stderr);
    };
  proofgame::Result r;
  try {
    r = proofgame::search(*l.engine, o);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  if (tty && r.seconds > 0.25) std::fprintf(stderr, "\r%78s\r", "");

  // Every turn checked again: on a fresh compiled generator and on the reference engine.
  std::vector<std::string> checked;
  if (r.found) {
    std::unique_ptr<Engine> fresh = l.engine->clone();
    std::string err = proofgame::replay(*fresh, start, r.line);
    if (!err.empty()) {
      std::cerr << "arbiter proofgame: the game does not replay: " << err << "\n";
      return kFailed;
    }
    checked.push_back(fresh->name());
    std::unique_ptr<Engine> ref;
    try {
      ref = registry::make_reference(l.variant, parse_sets(c.sets));
    } catch (const std::invalid_argument&) {
    }
    if (ref && ref->name() != fresh->name()) {
      err = proofgame::replay(*ref, start, r.line);
      if (!err.empty()) {
        std::cerr << "arbiter proofgame: the reference engine disagrees: " << err << "\n";
        return kFailed;
      }
      checked.push_back(ref->name());
    }
  }
  if (!svg.empty() && r.found) {
    try {
      write_atomically(svg,
                       synth::diagram_svg(synth::parse_diagram(r.final_position),
                                          l.variant + ": draw after " + std::to_string(r.plies) + " plies"));
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
  if (r.found) {
    bool white_first = l.engine->side_to_move() == Color::White;
    int fullmove = 1;
    if (size_t sp = start.rfind(' '); sp != std::string::npos) {
      try {
        fullmove = std::max(1, std::stoi(start.substr(sp + 1)));
      } catch (const std::exception&) {
      }
    }
    auto plies = [](int n) { return std::to_string(n) + (n == 1 ? " ply" : " plies"); };
    std::cout << "draw in " << r.plies << (r.plies == 1 ? " ply" : " plies")
              << (r.shortest ? " (shortest: no draw within " + plies(r.proved_none_within) + ", proved)"
                             : " (not proved shortest: no draw within " + plies(r.proved_none_within) +
                                   " proved; " + (r.why.empty() ? "raise --max-plies" : r.why) + ")")
              << "\n";
    std::cout << "game: " << numbered(r.san, white_first, fullmove) << "\n";
    std::cout << "uci: ";
    for (size_t i = 0; i < r.line.size(); ++i) std::cout << (i ? " " : "") << r.line[i];
    std::cout << "\nfinal: " << r.final_position << "\n";
    std::cout << "checked move by move on: " << checked_by << "\n";
  } else if (result == "none") {
    std::cout << "none: no draw within " << r.proved_none_within
              << (r.proved_none_within == 1 ? " ply" : " plies") << " (proved)\n";
  } else {
    std::cout << "unknown: " << r.why << "; no draw within " << r.proved_none_within
              << (r.proved_none_within == 1 ? " ply" : " plies") << " (proved)\n";
  }
  std::cout << "start: " << start << "\n";
  std::cout << "nodes " << r.beam_nodes + r.proof_nodes << " (beam " << r.beam_nodes << ", proof "
            << r.proof_nodes << ", table hits " << r.table_hits;
  if (r.filter) std::cout << ", last turns skipped by the filter " << r.filtered;
  std::cout << "), " << secs.str() << " s\n";
  if (c.json) {
    std::string j = "{\"result\":\"" + result + "\",\"goal\":\"draw\",\"variant\":\"" +
                    json_escape(l.variant) + "\",\"start\":\"" + json_escape(start) + "\"";
    if (r.found)
      j += ",\"plies\":" + std::to_string(r.plies) + ",\"line\":" + json_list(r.line) +
           ",\"san\":" + json_list(r.san) + ",\"final\":\"" + json_escape(r.final_position) +
           "\",\"found_by\":\"" + r.found_by + "\",\"checked_by\":" + json_list(checked);
    j += ",\"proved_none_within\":" + std::to_string(r.proved_none_within);
    if (!r.why.empty()) j += ",\"why\":\"" + json_escape(r.why) + "\"";
    std::string dn = "[";
    for (size_t i = 0; i < r.depth_nodes.size(); ++i) dn += (i ? "," : "") + std::to_string(r.depth_nodes[i]);
    j += ",\"depth_nodes\":" + dn + "]";
    j += ",\"nodes\":" + std::to_string(r.beam_nodes + r.proof_nodes) +
         ",\"beam_nodes\":" + std::to_string(r.beam_nodes) +
         ",\"proof_nodes\":" + std::to_string(r.proof_nodes) + ",\"filtered\":" + std::to_string(r.filtered) +
         ",\"seconds\":" + secs.str() + "}";
    std::cout << j << "\n";
  }
  return result == "shortest" || result == "none" ? kOk : kUnknown;
}

}  // namespace arb::cli
