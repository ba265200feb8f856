// The `arbiter` command. Exit status: 0 success, 1 a check failed, 2 unusable input.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <iostream>
#include <sstream>

#include "arbiter/json.hpp"
#include "arbiter/lang/expect.hpp"
#include "arbiter/notation.hpp"
#include "arbiter/perft_suite.hpp"
#include "common.hpp"
#include "registry/variants.hpp"
#include "version.hpp"

using namespace arb::cli;

namespace {

// The deepest perft a command runs (--depth, a ruleset's `perft` expectations); suites
// read with the same limit (arb::kMaxSuiteDepth).
constexpr int kMaxDepth = arb::kMaxSuiteDepth;

// Options and arguments of the commands that take ruleset files (check, test).
struct FileArgs {
  std::vector<std::string> files, sets;
  bool json = false;
  std::string junit, timeout, max_nodes;
  double timeout_seconds = 0;
  uint64_t max_nodes_value = arb::lang::ExpectBudget::kDefaultMaxNodes;
};

// A ruleset file that cannot be read (missing, a directory, a device, too large): the
// message, or "" when it is a readable regular file.
std::string unreadable(const std::string& file) {
  try {
    check_input_file(file, "ruleset", arb::lang::kMaxRulesetBytes);
    return "";
  } catch (const UsageError& e) {
    return e.what();
  }
}
// Parses them; false when --help was answered.
bool parse_file_args(const char* usage, const char* cmd, const std::vector<std::string>& args, FileArgs& fa,
                     bool with_junit) {
  po::options_description d(usage);
  d.add_options()("file", po::value(&fa.files), "ruleset files")(
      "set", po::value(&fa.sets)->composing(), "NAME=VALUE")("json", po::bool_switch(&fa.json),
                                                             std::string(cmd) == "check"
                                                                 ? "one JSON object per file, one a line"
                                                                 : "one JSON object: the counts and every "
                                                                   "expectation's result");
  if (with_junit)
    d.add_options()("junit", po::value(&fa.junit), "also write the results as JUnit XML to FILE");
  if (std::string(cmd) == "test")
    d.add_options()("timeout", po::value(&fa.timeout), kTimeoutHelp)(
        "max-nodes", po::value(&fa.max_nodes),
        "node budget of each perft expectation (default 1000000000, 0: none): a depth estimated past it "
        "is not run and the line fails");
  if (print_help(d, args)) return false;
  po::variables_map vm = parse_command_line(args, d, "file");
  if (fa.files.empty()) throw UsageError(std::string("arbiter ") + cmd + " needs at least one FILE.rules");
  if (vm.count("junit")) check_output_path(fa.junit, fa.files, "junit");
  fa.timeout_seconds = !vm.count("timeout") ? 0 : seconds_option("timeout", fa.timeout, 0, kMaxTimeout);
  if (vm.count("max-nodes")) fa.max_nodes_value = uint_option("max-nodes", fa.max_nodes, 0, UINT64_MAX);
  return true;
}

int cmd_check(const std::vector<std::string>& args) {
  FileArgs fa;
  if (!parse_file_args("arbiter check FILE.rules... [--set NAME=VALUE] [--json]", "check", args, fa, false))
    return kOk;
  const auto& files = fa.files;
  const auto& sets = fa.sets;
  const bool json = fa.json;
  bool any_error = false, any_unusable = false;
  for (const auto& f : files) {
    arb::lang::Diagnostics diags;
    std::string problem = unreadable(f);
    arb::lang::Compiled c;
    // The sources of the other settings' compiles, alive while their diagnostics are.
    std::vector<std::unique_ptr<arb::lang::Source>> other_sources;
    if (problem.empty()) {
      c = compile_ruleset(f, parse_sets(sets), diags);
      // The blocks of `when` that these options skip are checked under the settings that
      // read them (a corrupted statement in `when level = 2 { }` is an error here too).
      if (c.model) arb::lang::check_every_setting(f, parse_sets(sets), diags, other_sources);
    } else {
      diags.error(arb::lang::Loc{}, problem);
    }
    bool parses = c.model != nullptr;
    bool executable = c.program != nullptr && !diags.has_errors();
    if (!json) {
      std::cerr << diags.render();
      if (executable)
        std::cout << f << ": ok (" << c.model->title << ", executable by the compiled generator)\n";
      else if (parses)
        std::cout << f
                  << ": checks, but does not compile to a generator: " << plural(diags.error_count(), "error")
                  << "\n";
      else
        std::cout << f << ": " << plural(diags.error_count(), "error") << "\n";
    } else {
      // One object per file, one a line (JSON Lines), as every --json output.
      arb::Json out = {{"file", f}, {"checks", parses}, {"executable", executable}};
      out["diagnostics"] = arb::Json::array();
      for (const auto& dg : diags.all())
        out["diagnostics"].push_back(
            {{"line", dg.loc.line}, {"column", dg.loc.col}, {"message", dg.message}, {"hint", dg.hint}});
      std::cout << arb::json_text(out) << "\n";
    }
    if (!parses) any_unusable = true;
    if (!executable) any_error = true;
  }
  return any_unusable ? kBadInput : any_error ? kFailed : kOk;
}

int cmd_moves(const std::vector<std::string>& args) {
  Common c;
  std::string notation = "san";
  po::options_description d("arbiter moves [--variant V | --rules F] [--position TEXT] [--notation san|uci]");
  add_common(d, c);
  d.add_options()("notation", po::value(&notation), "san (default) or uci");
  if (print_help(d, args)) return kOk;
  po::variables_map vm = parse_command_line(args, d);
  c.given(vm);
  if (notation != "san" && notation != "uci") throw UsageError("--notation must be san or uci");
  Loaded l = load_engine(c);
  if (!l.engine) return kBadInput;
  arb::Engine& e = *l.engine;
  std::vector<arb::Action> acts;
  e.legal_actions(acts);
  auto known = arb::registry::find(l.variant);
  bool placement_p = known && known->placement_p;
  std::vector<std::string> texts;
  for (const auto& a : acts)
    texts.push_back(notation == "uci" ? arb::uci(e.describe(a), e.chess960()) : arb::san(e, a, placement_p));
  arb::Status st = e.status();
  if (c.json) {
    arb::Json o = {{"position", e.position()},      {"actions", texts},
                   {"count", texts.size()},         {"result", arb::to_string(st.result)},
                   {"end", arb::to_string(st.end)}, {"reason", st.reason},
                   {"in_check", st.in_check},       {"claim_threefold", st.claim_threefold},
                   {"claim_fifty", st.claim_fifty}};
    std::cout << arb::json_text(o) << "\n";
    return kOk;
  }
  for (const auto& t : texts) std::cout << t << "\n";
  std::cout << "actions " << texts.size() << "\n";
  std::cout << "status " << (st.result == arb::Result::Ongoing ? "ongoing" : arb::to_string(st.result));
  if (!st.reason.empty()) std::cout << " " << st.reason;
  if (st.in_check) std::cout << " check";
  if (st.claim_threefold) std::cout << " claim-threefold";
  if (st.claim_fifty) std::cout << " claim-fifty";
  std::cout << "\n";
  return kOk;
}

int run_suite(Loaded& l, const std::string& path, uint64_t max_nodes, bool json) {
  std::vector<arb::PerftCase> cases;
  try {
    cases = arb::read_perft_suite(path);
  } catch (const std::exception& ex) {
    std::cerr << "error: " << ex.what() << "\n";
    return kBadInput;
  }
  if (cases.empty()) {
    std::cerr << "error: " << path
              << ": the suite has no positions (`epd FEN` then `perft DEPTH NODES` lines)\n";
    return kBadInput;
  }
  // Positions without a single `perft` line check nothing either (it passed with exit 0).
  if (std::all_of(cases.begin(), cases.end(), [](const arb::PerftCase& pc) { return pc.expected.empty(); })) {
    std::cerr << "error: " << path << ":" << cases.front().line
              << ": the suite checks nothing (no `perft DEPTH NODES` line after any `epd`)\n";
    return kBadInput;
  }
  // Every position read before any count is run: a line the engine cannot use makes the
  // suite unusable (exit 2), not a failed check.
  bool unusable = false;
  for (const auto& pc : cases) {
    try {
      l.engine->set_position(pc.position);
    } catch (const arb::PositionError& e) {
      std::cerr << path << ":" << pc.line << ": bad position: " << e.what() << "\n  " << pc.position << "\n";
      unusable = true;
    }
  }
  if (unusable) return kBadInput;
  uint64_t checked = 0, skipped = 0, failed = 0, nodes = 0;
  auto t0 = std::chrono::steady_clock::now();
  arb::ProgressLine bar("perft", "positions", cases.size(), arb::progress_wanted(json));
  for (size_t i = 0; i < cases.size(); ++i) {
    const auto& pc = cases[i];
    l.engine->set_position(pc.position);
    for (auto [depth, expected] : pc.expected) {
      if (max_nodes && expected > max_nodes) {
        ++skipped;
        continue;
      }
      uint64_t got = l.engine->perft(depth);
      nodes += got;
      ++checked;
      if (got != expected) {
        ++failed;
        std::cerr << path << ":" << pc.line << ": " << pc.id << " perft " << depth << ": expected "
                  << expected << ", got " << got << "\n  " << pc.position << "\n";
      }
    }
    bar.update(i + 1, plural(checked, "check") + ", " + std::to_string(failed) + " failed");
  }
  bar.finish();
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (json) {
    std::cout << arb::json_text({{"suite", path},
                                 {"positions", cases.size()},
                                 {"checked", checked},
                                 {"skipped", skipped},
                                 {"failed", failed},
                                 {"nodes", nodes},
                                 {"seconds", secs}})
              << "\n";
  } else {
    std::cout << "suite " << path << ": " << plural(cases.size(), "position") << ", "
              << plural(checked, "check") << ", " << skipped << " skipped over --max-nodes, " << failed
              << " failed\n";
    std::cout << "nodes " << nodes << "\n";
  }
  return failed ? kFailed : kOk;
}

int cmd_perft(const std::vector<std::string>& args) {
  Common c;
  int depth = -1;
  bool divide = false;
  std::string suite, depth_text, max_nodes_text, timeout_text;
  uint64_t max_nodes = 0;
  po::options_description d(
      "arbiter perft [--variant V | --rules F] [--position TEXT] --depth N [--divide] [--json]");
  add_common(d, c);
  d.add_options()("depth", po::value(&depth_text), "depth in plies (turns), 0 to 20")(
      "divide", po::bool_switch(&divide), "one line per root action")("suite", po::value(&suite),
                                                                      "run a .perft suite file")(
      "max-nodes", po::value(&max_nodes_text), "with --suite: skip checks expecting more nodes")(
      "timeout", po::value(&timeout_text), kTimeoutHelp);
  if (print_help(d, args)) return kOk;
  po::variables_map vm = parse_command_line(args, d);
  c.given(vm);
  if (vm.count("depth")) depth = static_cast<int>(int_option("depth", depth_text, 0, kMaxDepth));
  if (vm.count("max-nodes")) max_nodes = uint_option("max-nodes", max_nodes_text, 0, UINT64_MAX);
  double timeout = vm.count("timeout") ? seconds_option("timeout", timeout_text, 0, kMaxTimeout) : 0;
  if (vm.count("suite")) {
    if (vm.count("depth") || divide) throw UsageError("give --suite or --depth/--divide, not both");
    if (suite.empty()) throw UsageError("--suite needs a file name");
  } else if (!vm.count("depth")) {
    throw UsageError("arbiter perft needs --depth N (or --suite FILE)");
  } else if (vm.count("max-nodes")) {
    throw UsageError("--max-nodes applies to --suite");
  }
  Watchdog watchdog(timeout, "perft");
  Loaded l = load_engine(c);
  if (!l.engine) return kBadInput;
  if (vm.count("suite")) return run_suite(l, suite, max_nodes, c.json);
  arb::Engine& e = *l.engine;
  auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();  // the process's CPU time (bench/run --cpu)
  uint64_t total = 0;
  std::vector<std::pair<std::string, uint64_t>> rows;
  if (divide && depth >= 1) {
    std::vector<arb::Action> acts;
    e.legal_actions(acts);
    for (const auto& a : acts) {
      std::string t = arb::uci(e.describe(a), e.chess960());
      e.apply(a);
      uint64_t n = e.perft(depth - 1);
      e.undo();
      rows.push_back({t, n});
      total += n;
    }
  } else {
    total = e.perft(depth);
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
  if (c.json) {
    arb::Json o = {{"nodes", total},
                   {"depth", depth},
                   {"seconds", secs},
                   {"cpu_seconds", cpu},
                   {"nodes_per_second", static_cast<uint64_t>(secs > 0 ? total / secs : 0)}};
    if (divide) {
      o["divide"] = arb::Json::object();
      for (const auto& [t, n] : rows) o["divide"][t] = n;
    }
    std::cout << arb::json_text(o) << "\n";
    return kOk;
  }
  for (const auto& [t, n] : rows) std::cout << t << " " << n << "\n";
  std::cout << "nodes " << total << "\n";
  return kOk;
}

// Runs the expectations a ruleset states about itself.
int cmd_test(const std::vector<std::string>& args) {
  FileArgs fa;
  if (!parse_file_args("arbiter test FILE.rules... [--json] [--junit FILE]", "test", args, fa, true))
    return kOk;
  const auto& files = fa.files;
  const auto& sets = fa.sets;
  const bool json = fa.json;
  const std::string& junit = fa.junit;
  int passed = 0, failed = 0;
  bool unusable = false;
  arb::Json jrows = arb::Json::array();
  std::vector<JUnitCase> cases;
  Watchdog watchdog(fa.timeout_seconds, "test");
  // The expectations' budget: the command's node budget and the time --timeout leaves.
  arb::lang::ExpectBudget budget;
  budget.max_nodes = fa.max_nodes_value;
  if (fa.timeout_seconds > 0)
    budget.deadline =
        std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                               std::chrono::duration<double>(fa.timeout_seconds));
  arb::ProgressLine bar("test", "files", files.size(), arb::progress_wanted(json));
  size_t files_done = 0;
  for (const auto& f : files) {
    bar.update(files_done++, std::to_string(passed) + " passed, " + std::to_string(failed) + " failed");
    arb::lang::Diagnostics diags;
    std::string problem = unreadable(f);
    arb::lang::Compiled c;
    if (problem.empty())
      c = compile_ruleset(f, parse_sets(sets), diags);
    else
      diags.error(arb::lang::Loc{}, problem);
    if (!c.program) {
      std::cerr << diags.render();
      unusable = true;
      JUnitCase tc;
      tc.name = "compile " + f;
      tc.classname = "arbiter.test";
      tc.failed = true;
      tc.message = f + ": " + plural(diags.error_count(), "error");
      tc.output = diags.render();
      cases.push_back(tc);
      continue;
    }
    for (const auto& out : arb::lang::run_expectations(
             c.model->expects, arb::registry::program_engines(c.program), kMaxDepth, budget)) {
      const arb::lang::Expectation& ex = *out.expectation;
      const std::string &where = out.where, &want = out.want, &got = out.got;
      const bool ok = out.ok;
      if (ok) {
        ++passed;
      } else if (out.unusable) {
        ++failed;
        unusable = true;
        std::cerr << where << ": unusable expectation: " << got << "\n";
      } else {
        ++failed;
        std::cerr << where << ": expectation failed: " << ex.kind << " expected " << want << ", got " << got
                  << "\n";
      }
      JUnitCase tc;
      tc.name = where + ": " + ex.kind + (ex.kind == "perft" ? " " + std::to_string(ex.depth) : "");
      tc.classname = "arbiter.test." + (c.model ? c.model->name : std::string("ruleset"));
      tc.seconds = out.seconds;
      tc.failed = !ok;
      tc.message = ok ? "" : ex.kind + " expected " + want + ", got " + got;
      cases.push_back(tc);
      if (json)
        jrows.push_back({{"where", where}, {"kind", ex.kind}, {"expected", want}, {"got", got}, {"ok", ok}});
    }
  }
  bar.update(files.size(), std::to_string(passed) + " passed, " + std::to_string(failed) + " failed");
  bar.finish();
  if (json)
    std::cout << arb::json_text({{"passed", passed}, {"failed", failed}, {"results", jrows}}) << "\n";
  else
    std::cout << passed << " passed, " << failed << " failed\n";
  watchdog.disarm();
  if (!junit.empty()) write_atomically(junit, junit_xml("arbiter test", cases));
  if (unusable) return kBadInput;
  return failed ? kFailed : kOk;
}

// Writes `text` to `path` atomically (a temporary file renamed over it).
void usage() {
  std::cout << "usage: arbiter COMMAND [options]\n\n"
               "commands:\n"
               "  check FILE.rules...   lint rulesets: every error with file:line:col\n"
               "  moves                 legal actions and status of a position\n"
               "  perft                 count leaf nodes (--depth N, --divide, --suite FILE)\n"
               "  test FILE.rules...    run the expectations a ruleset states about itself\n"
               "  fuzz                  compare the compiled generator with the reference engine\n"
               "  export --fsf FILE.rules   the ruleset as a Fairy-Stockfish variants.ini section\n"
               "  diff --rules OLD --rules NEW   where two versions of a ruleset disagree\n"
               "                        (--expect same|different, --json, --junit FILE)\n"
               "  synth --goal G          positions meeting a goal, found by Z3, verified (--material,\n"
               "                        --window WxH, --count N, --json)\n"
               "  diagram                 an SVG of a position (--svg FILE), an HTML page of a puzzle\n"
               "                        file (--puzzles FILE.csv --html FILE)\n"
               "  validate FILES...     validate game records (PGN, plain or zstd): --jobs N, --json,\n"
               "                        --junit FILE, --shard I/N\n"
               "  mutate FILE.rules     single-point mutants of a ruleset, each run through the checker:\n"
               "                        the mutation score and every surviving mutant\n"
               "  solve --depth N       forced win/mate/draw within N moves (--goal, --all-keys)\n"
               "  proofgame --goal draw the shortest game to a no-legal-move draw (ChessMe), proved\n"
               "                        shortest by exhaustive search (--max-plies N, --json)\n"
               "  puzzles --depth K     proved unique-key puzzles from self-play (--goal, --count, --out)\n\n"
               "common options: --variant NAME | --rules FILE, --set NAME=VALUE, --position TEXT (--fen),\n"
               "                --moves RECORD, --seed N, --engine compiled|reference, --json\n"
               "arbiter COMMAND --help lists a command's options; arbiter --version its version.\n"
               "exit status: 0 success, 1 a check failed, 2 unusable input\n";
}

int dispatch(const std::string& cmd, const std::vector<std::string>& args) {
  try {
    if (cmd == "check") return cmd_check(args);
    if (cmd == "moves") return cmd_moves(args);
    if (cmd == "perft") return cmd_perft(args);
    if (cmd == "test") return cmd_test(args);
    if (cmd == "fuzz") return cmd_fuzz(args);
    if (cmd == "export") return cmd_export(args);
    if (cmd == "diff") return cmd_diff(args);
    if (cmd == "synth") return cmd_synth(args);
    if (cmd == "diagram") return cmd_diagram(args);
    if (cmd == "validate") return cmd_validate(args);
    if (cmd == "mutate") return cmd_mutate(args);
    if (cmd == "solve") return cmd_solve(args);
    if (cmd == "proofgame") return cmd_proofgame(args);
    if (cmd == "puzzles") return cmd_puzzles(args);
    std::cerr << "arbiter: unknown command `" << cmd << "`\n";
    usage();
    return kBadInput;
  } catch (const po::error& e) {
    std::cerr << "arbiter " << cmd << ": " << e.what() << "\n";
    return kBadInput;
  } catch (const UsageError& e) {
    std::cerr << "arbiter " << cmd << ": " << e.what() << "\n";
    return kBadInput;
  } catch (const std::exception& e) {
    std::cerr << "arbiter " << cmd << ": " << e.what() << "\n";
    return kBadInput;
  }
}

// Whether everything written to standard output reached it: a full disk or a closed pipe
// is an error of the run (exit 2), never a silent success.
bool stdout_written() {
  std::cout.flush();
  errno = 0;
  bool flushed = std::fflush(stdout) == 0;
  bool ok = flushed && !std::cout.fail() && !std::ferror(stdout);
  if (!ok) {
    int err = errno;
    std::cerr << "arbiter: cannot write standard output"
              << (err ? std::string(": ") + std::strerror(err) : "") << "\n";
  }
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  handle_signals();
  TerminalGuard terminal;  // every text report escaped (control characters, bytes not UTF-8)
  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h" ||
      std::string(argv[1]) == "help") {
    usage();
    if (!stdout_written()) return kBadInput;
    return argc < 2 ? kBadInput : kOk;
  }
  if (std::string(argv[1]) == "--version" || std::string(argv[1]) == "version") {
    std::cout << "arbiter " << kVersion;
    if (*kGitDescribe) std::cout << " (git " << kGitDescribe << ")";
    std::cout << "\n";
    return stdout_written() ? kOk : kBadInput;
  }
  std::string cmd = argv[1];
  std::vector<std::string> args(argv + 2, argv + argc);
  int code = dispatch(cmd, args);
  if (!stdout_written()) return kBadInput;
  return code;
}
