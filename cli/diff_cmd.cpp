// arbiter diff: where two versions of a ruleset disagree. Both are compiled and driven
// side by side by the differential checker (random games and mutated positions from the
// old version's start); each difference found is shrunk and reported as actions gained
// or lost, a status changed, a position written differently, or a text only one accepts.
#include <unistd.h>

#include <iostream>
#include <sstream>

#include "arbiter/lang/syntax.hpp"
#include "arbiter/parallel.hpp"
#include "common.hpp"
#include "fuzz/fuzz.hpp"
#include "registry/engines.hpp"

namespace arb::cli {

namespace {

struct Difference {
  arb::fuzz::Divergence d;
  std::vector<std::string> gained, lost;  // actions only the new / only the old version has
};

Difference describe(const arb::fuzz::Divergence& d) {
  Difference out{d, {}, {}};
  std::istringstream in(d.diff);
  std::string tok;
  while (in >> tok) {
    if (tok.size() < 2) continue;
    (tok[0] == '+' ? out.lost : out.gained).push_back(tok.substr(1));
  }
  return out;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : " ") + x;
  return s;
}

std::string summary(const Difference& x) {
  const auto& d = x.d;
  if (d.what == "actions") {
    std::string s;
    if (!x.gained.empty()) s += "actions gained: " + joined(x.gained);
    if (!x.lost.empty()) s += std::string(s.empty() ? "" : "; ") + "actions lost: " + joined(x.lost);
    return s;
  }
  if (d.what == "status") return "status changed: " + d.left + " -> " + d.right;
  if (d.what == "setup") return "start position changed";
  if (d.what == "accepts") return "position text accepted by one version only";
  return "position text after the actions differs";
}

std::string detail(const Difference& x) {
  const auto& d = x.d;
  std::ostringstream o;
  o << "  position: " << d.position << "\n";
  if (!d.action.empty()) o << "  after:    " << d.action << "\n";
  o << "  " << summary(x) << "\n";
  if (d.what != "actions" && d.what != "status") o << "  old: " << d.left << "\n  new: " << d.right << "\n";
  return o.str();
}

}  // namespace

int cmd_diff(const std::vector<std::string>& args) {
  std::vector<std::string> rules, sets;
  std::string position, expect = "same", junit;
  std::string games_text, seconds_text, seed_text, jobs_text, max_plies_text, mutate_text, max_diff_text,
      timeout_text;
  bool json = false;
  int jobs = 1;
  size_t max_differences = 5;
  arb::fuzz::Options o;
  o.games = 200;
  po::options_description d(
      "arbiter diff --rules OLD.rules --rules NEW.rules [--set NAME=VALUE] [--games N | --seconds S] [--seed "
      "K]\n"
      "             [--expect same|different] [--json] [--junit FILE]");
  d.add_options()("rules", po::value(&rules)->composing(), "the OLD then the NEW ruleset file")(
      "set", po::value(&sets)->composing(), "option override NAME=VALUE for both versions (repeatable)")(
      "position", po::value(&position), "start from this text (default: the old version's start)")(
      "games", po::value(&games_text), "number of random games (default 200)")(
      "seconds", po::value(&seconds_text), "explore for this long instead")(
      "seed", po::value(&seed_text), "random seed (deterministic for a seed and a job count)")(
      "jobs", po::value(&jobs_text), "parallel jobs (1)")("max-plies", po::value(&max_plies_text),
                                                          "longest game (120)")(
      "mutate", po::value(&mutate_text), "chance in percent per ply of mutating the position (6)")(
      "max-differences", po::value(&max_diff_text), "stop after this many distinct differences (5)")(
      "expect", po::value(&expect), "same (default) or different: anything else is exit 1")(
      "json", po::bool_switch(&json), "machine-readable output")(
      "junit", po::value(&junit), "also write the result as JUnit XML to FILE")(
      "timeout", po::value(&timeout_text), kTimeoutHelp);
  if (print_help(d, args)) return kOk;
  po::variables_map vm = parse_command_line(args, d);
  if (rules.size() != 2)
    throw UsageError("arbiter diff needs exactly two --rules: the old and the new version");
  if (expect != "same" && expect != "different") throw UsageError("--expect must be `same` or `different`");
  if (vm.count("games")) o.games = uint_option("games", games_text, 1, 1000000000);
  if (vm.count("seconds")) o.seconds = seconds_option("seconds", seconds_text, 0.001, kMaxTimeout);
  if (vm.count("seconds") && vm.count("games")) throw UsageError("give --seconds or --games, not both");
  if (vm.count("seed")) o.seed = uint_option("seed", seed_text, 0, UINT64_MAX);
  if (vm.count("jobs")) jobs = static_cast<int>(int_option("jobs", jobs_text, 1, arb::kMaxJobs));
  if (vm.count("max-plies"))
    o.max_plies = static_cast<int>(int_option("max-plies", max_plies_text, 1, 100000));
  if (vm.count("mutate")) o.mutate_percent = static_cast<int>(int_option("mutate", mutate_text, 0, 100));
  if (vm.count("max-differences"))
    max_differences = static_cast<size_t>(int_option("max-differences", max_diff_text, 1, 1000));
  double timeout = vm.count("timeout") ? seconds_option("timeout", timeout_text, 0, kMaxTimeout) : 0;
  if (vm.count("position") && position.find_first_not_of(" \t") == std::string::npos)
    throw UsageError("--position needs a position text (omit it for the old version's start)");
  for (const auto& r : rules) check_input_file(r, "ruleset", arb::lang::kMaxRulesetBytes);
  if (vm.count("junit")) check_output_path(junit, rules, "junit");
  Watchdog watchdog(timeout, "diff");
  auto overrides = parse_sets(sets);
  std::shared_ptr<const arb::lang::Program> programs[2];
  for (int i = 0; i < 2; ++i) {
    arb::lang::Diagnostics diags;
    auto compiled = compile_ruleset(rules[i], overrides, diags);
    if (diags.has_errors() || !compiled.program) {
      std::cerr << diags.render() << rules[i] << ": " << plural(diags.error_count(), "error") << "\n";
      return kBadInput;
    }
    programs[i] = compiled.program;
  }
  auto p_old = programs[0], p_new = programs[1];
  arb::fuzz::EngineFactory left = arb::registry::program_engines(p_old);
  arb::fuzz::EngineFactory right = arb::registry::program_engines(p_new);
  std::vector<Difference> found;
  std::string start_old = left()->position(), start_new = right()->position();
  std::string start = position.empty() ? start_old : position;
  if (position.empty() && start_old != start_new) {
    arb::fuzz::Divergence s;
    s.position = start_old;
    s.what = "setup";
    s.left = start_old;
    s.right = start_new;
    found.push_back(describe(s));
  }
  o.max_divergences = max_differences;
  o.strict_acceptance = true;  // between two versions a text accepted by one only is a difference
  o.progress = progress_wanted(json);
  arb::fuzz::Report r;
  try {
    r = arb::fuzz::run_parallel(left, right, start, o, jobs);
  } catch (const std::runtime_error& e) {
    std::cerr << "arbiter diff: " << e.what() << "\n";
    return kBadInput;
  }
  watchdog.disarm();
  for (const auto& dv : r.divergences)
    if (found.size() < max_differences) found.push_back(describe(dv));
  bool differ = !found.empty();
  bool ok = differ == (expect == "different");
  uint64_t rate = static_cast<uint64_t>(r.seconds > 0 ? r.positions / r.seconds : 0);
  std::string verdict = std::string(differ ? "the versions differ" : "no difference found") + " (expected " +
                        expect + (ok ? ")" : "): UNEXPECTED");
  if (!junit.empty()) {
    std::vector<JUnitCase> cases;
    std::string cls = "arbiter.diff";
    for (size_t i = 0; i < found.size(); ++i) {
      JUnitCase tc;
      tc.name = "difference " + std::to_string(i + 1) + ": " + summary(found[i]);
      tc.classname = cls;
      tc.failed = expect == "same";
      tc.message = tc.failed ? summary(found[i]) : "";
      tc.output = detail(found[i]);
      cases.push_back(tc);
    }
    JUnitCase verdict_case;
    verdict_case.name = "expect " + expect + ": " + rules[0] + " vs " + rules[1];
    verdict_case.classname = cls;
    verdict_case.seconds = r.seconds;
    verdict_case.failed = !ok;
    verdict_case.message = verdict;
    verdict_case.output = plural(r.games, "game") + ", " + plural(r.positions, "position") + " compared, " +
                          plural(found.size(), "difference") + "\n";
    cases.push_back(verdict_case);
    write_atomically(junit, junit_xml("arbiter diff", cases));
  }
  if (json) {
    Json j = {{"old", rules[0]},
              {"new", rules[1]},
              {"expect", expect},
              {"ok", ok},
              {"different", differ},
              {"seed", o.seed},
              {"games", r.games},
              {"positions", r.positions},
              {"seconds", r.seconds},
              {"positions_per_second", rate},
              {"differences", Json::array()}};
    for (const auto& x : found)
      j["differences"].push_back({{"what", x.d.what},
                                  {"position", x.d.position},
                                  {"actions", x.d.action},
                                  {"gained", x.gained},
                                  {"lost", x.lost},
                                  {"old", x.d.left},
                                  {"new", x.d.right},
                                  {"summary", summary(x)}});
    std::cout << json_text(j) << "\n";
  } else {
    std::cout << "diff " << rules[0] << " -> " << rules[1] << ": " << plural(r.games, "game") << ", "
              << plural(r.positions, "position") << " compared in " << r.seconds << " s (" << rate << "/s)\n";
    for (size_t i = 0; i < found.size(); ++i)
      std::cout << "difference " << (i + 1) << " (" << found[i].d.what << "):\n" << detail(found[i]);
    std::cout << verdict << "\n";
  }
  return ok ? kOk : kFailed;
}

}  // namespace arb::cli
