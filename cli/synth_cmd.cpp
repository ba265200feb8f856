// arbiter synth: positions meeting a goal, found by Z3 from the compiled ruleset and
// verified by the compiled generator before they are printed.
#include <cctype>
#include <cmath>
#include <iostream>
#include <sstream>

#include "arbiter/notation.hpp"
#include "arbiter/synth/synth.hpp"
#include "common.hpp"

namespace arb::cli {

namespace {

// "WxH".
void parse_window(const std::string& s, int& w, int& h) {
  size_t x = s.find_first_of("xX");
  if (x == std::string::npos) throw UsageError("--window must read WxH, e.g. 4x4");
  w = static_cast<int>(int_option("window", s.substr(0, x), 1, 64));
  h = static_cast<int>(int_option("window", s.substr(x + 1), 1, 64));
}

Coord square_option(const std::string& opt, const std::string& s) {
  size_t pos = 0;
  auto c = arb::parse_square(s, pos);
  if (!c || pos != s.size()) throw UsageError("--" + opt + ": `" + s + "` is not a square");
  return *c;
}

// "QN/r" (White's then Black's letters, either case; `-` for none) into case-coded letters.
std::string hands_option(const std::string& s) {
  size_t slash = s.find('/');
  if (slash == std::string::npos) throw UsageError("--hands must read WHITE/BLACK, e.g. QN/r or -/-");
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    char ch = s[i];
    if (ch == '/' || ch == '-') continue;
    if (!std::isalpha(static_cast<unsigned char>(ch)))
      throw UsageError("--hands: unexpected `" + std::string(1, ch) + "`");
    out.push_back(i < slash ? static_cast<char>(std::toupper(static_cast<unsigned char>(ch)))
                            : static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
  }
  return out;
}

}  // namespace

int cmd_synth(const std::vector<std::string>& args) {
  Common c;
  std::string goal = "checkmated", material, window, origin, side = "w", hands, discard, pieces, count = "1",
              timeout;
  std::vector<std::string> squares;
  bool smallest = false, eager = false;
  std::vector<std::string> options;
  po::options_description d(
      "arbiter synth --variant V --goal G [--material \"KQ v K\"] [--window WxH] [--count N] [--json]\n"
      "Positions meeting a goal, found by Z3 from the compiled ruleset, each verified by the\n"
      "compiled generator. Exit 0 when the question is answered (positions found, or proved\n"
      "impossible: no position within the window), 1 on --timeout, 2 on unusable input");
  d.add_options()("variant", po::value(&c.variant), "bundled ruleset name")(
      "rules", po::value(&c.rules), "ruleset file")("set", po::value(&c.sets)->composing(),
                                                    "NAME=VALUE (ruleset options)")(
      "option", po::value(&options)->composing(), "NAME=VALUE, as --set (e.g. white-army=two-kings)")(
      "goal", po::value(&goal),
      "checkmated, stalemated (the no-legal-move end), in-check, mate-in-1, no-legal-move")(
      "material", po::value(&material),
      "exact material on the board, WHITE v BLACK (default: within each set)")(
      "side", po::value(&side), "side to move: w (default) or b")(
      "window", po::value(&window), "pieces stand in the lower-left WxH squares (grid: default 6x6)")(
      "origin", po::value(&origin), "grid: the window's lower-left square (default a1)")(
      "square", po::value(&squares)->composing(),
      "SQ=P fixes a square: a piece letter (White upper case) or `.`")(
      "hands", po::value(&hands),
      "reserves, ChessMe hands or No Stress Chess cards, WHITE/BLACK, e.g. QN/r or PNBRQK/- (default "
      "empty)")("discard", po::value(&discard),
                "No Stress Chess discard piles, WHITE/BLACK bottom to top as wdiscard:/bdiscard:, each side "
                "`-` (empty), `?` (Z3 chooses its top piece card for an Again card; the default) or cards "
                "PNBRQKA, e.g. RA/- or ?/Q")("pieces", po::value(&pieces),
                                             "exactly this many pieces on the board")(
      "smallest", po::bool_switch(&smallest), "the fewest pieces for which the goal can be met")(
      "count", po::value(&count), "distinct positions wanted (default 1)")(
      "eager", po::bool_switch(&eager), "every no-legal-action conjunct up front (default: lazily)")(
      "json", po::bool_switch(&c.json), "one JSON object per line")("timeout", po::value(&timeout),
                                                                    kTimeoutHelp);
  if (print_help(d, args)) return kOk;
  po::variables_map vm = parse_command_line(args, d);
  c.given(vm, false);
  c.sets.insert(c.sets.end(), options.begin(), options.end());

  synth::Request r;
  try {
    r.goal = synth::parse_goal(goal);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--goal: ") + e.what());
  }
  if (side != "w" && side != "b") throw UsageError("--side must be w or b");
  r.side = side == "w" ? Color::White : Color::Black;
  r.material = material;
  if (!window.empty()) parse_window(window, r.window_w, r.window_h);
  if (!origin.empty()) {
    Coord o = square_option("origin", origin);
    // The window's far corner must be a square too (int32 coordinates): never wrapped.
    const int64_t w = r.window_w > 0 ? r.window_w : 6, h = r.window_h > 0 ? r.window_h : 6;
    if (int64_t{o.x} + w - 1 > INT32_MAX || int64_t{o.y} + h - 1 > INT32_MAX)
      throw UsageError("--origin `" + origin + "`: the window (" + std::to_string(w) + "x" +
                       std::to_string(h) + ") from there reaches past coordinate 2147483647");
    r.origin_x = o.x;
    r.origin_y = o.y;
  }
  for (const auto& s : squares) {
    size_t eq = s.find('=');
    if (eq == std::string::npos || eq + 2 != s.size())
      throw UsageError("--square must read SQ=P, e.g. e1=K or d4=.");
    r.squares.push_back({square_option("square", s.substr(0, eq)), s[eq + 1]});
  }
  if (!hands.empty()) r.hands = hands_option(hands);
  if (vm.count("discard")) {
    try {
      synth::parse_discard(discard, r);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
  }
  if (!pieces.empty()) r.pieces = static_cast<int>(int_option("pieces", pieces, 2, 1024));
  r.smallest = smallest;
  r.eager = eager;
  r.count = static_cast<int>(int_option("count", count, 1, 1000000));
  if (vm.count("timeout")) r.timeout_seconds = seconds_option("timeout", timeout, 0, kMaxTimeout);

  arb::lang::Diagnostics diags;
  std::string path = rules_path(c);
  check_input_file(path, "ruleset", arb::lang::kMaxRulesetBytes);
  arb::lang::Compiled compiled = compile_ruleset(path, parse_sets(c.sets), diags);
  if (!compiled.program) {
    std::cerr << diags.render() << path << ": does not compile to a generator, so it cannot be synthesised\n";
    return kBadInput;
  }
  const std::string variant = compiled.model->name;
  // Positions found of --count; with --timeout the time used is the share done.
  arb::ProgressLine bar("synth", "positions", static_cast<uint64_t>(r.count), progress_wanted(c.json));
  if (bar.on())
    r.progress = [&](size_t found, size_t rejected) {
      double share = static_cast<double>(found) / r.count;
      if (r.timeout_seconds > 0) share = std::max(share, bar.seconds() / r.timeout_seconds);
      bar.update(found, std::to_string(rejected) + " rejected", std::min(1.0, share));
    };
  synth::Outcome out;
  try {
    out = synth::synthesize(compiled.program, r);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  bar.finish();
  for (const auto& f : out.found) {
    if (c.json) {
      Json j = {{"position", f.position}, {"goal", synth::to_string(r.goal)},
                {"variant", variant},     {"side", side},
                {"pieces", f.pieces},     {"reason", f.reason}};
      if (!f.move.empty()) j["move"] = f.move;
      j["verified"] = true;
      std::cout << json_text(j) << "\n";
    } else {
      std::cout << f.position;
      if (!f.move.empty()) std::cout << "  key " << f.move;
      std::cout << "\n";
    }
  }
  std::string result = out.found.size() >= static_cast<size_t>(r.count) ? "found"
                       : out.timed_out                                  ? "timeout"
                       : !out.incomplete.empty()                        ? "not-found"
                       : out.found.empty()                              ? "impossible"
                                                                        : "exhausted";
  std::ostringstream secs;
  secs.precision(3);
  secs << std::fixed << out.seconds;
  if (c.json) {
    Json j = {{"result", result},
              {"found", out.found.size()},
              {"conjuncts", out.conjuncts},
              {"refinements", out.refinements},
              {"rejected", out.rejected},
              {"solver_calls", out.solver_calls},
              {"fresh_checks", out.fresh_checks},
              {"seconds", std::round(out.seconds * 1000) / 1000}};  // to the millisecond, as the text
    if (!out.incomplete.empty()) j["incomplete"] = out.incomplete;
    if (!out.scope.empty()) j["scope"] = out.scope;
    std::cout << json_text(j) << "\n";
  } else {
    std::string where = r.window_w > 0 || compiled.program->grid ? " within the window" : "";
    std::string stats = " (" + secs.str() + " s, " + std::to_string(out.solver_calls) + " Z3 calls, " +
                        std::to_string(out.conjuncts) + " conjuncts, " + std::to_string(out.refinements) +
                        " refinements, " + std::to_string(out.rejected) + " rejected)";
    if (result == "found")
      std::cout << "found " << out.found.size() << stats << "\n";
    else if (result == "impossible")
      std::cout << "proved impossible" << where << ": no position meets the goal and the constraints"
                << (out.scope.empty() ? "" : ", for " + out.scope) << stats << "\n";
    else if (result == "exhausted")
      std::cout << "exhausted: exactly " << plural(out.found.size(), "position")
                << (out.found.size() == 1 ? " exists" : " exist") << where
                << (out.scope.empty() ? "" : ", over " + out.scope) << stats << "\n";
    else if (result == "not-found")
      std::cout << "not found: " << plural(out.found.size(), "position")
                << ", and no proof that there are no more: " << out.incomplete << stats << "\n";
    else
      std::cerr << "arbiter synth: --timeout after " << plural(out.found.size(), "position") << stats << "\n";
  }
  return result == "timeout" || result == "not-found" ? kFailed : kOk;
}

}  // namespace arb::cli
