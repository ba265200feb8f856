// arbiter mutate: the single-point mutants of a ruleset (checker/mutate/rule_mutants.hpp),
// each judged by the compiler and the differential checker against the original ruleset
// or the variant's reference engine; prints the mutation score and every surviving
// mutant at the line it changed, so that a designer sees which rules nothing tells apart.
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "arbiter/lang/export_fsf.hpp"
#include "arbiter/lang/grid_bounded.hpp"
#include "arbiter/lang/syntax.hpp"
#include "arbiter/parallel.hpp"
#include "common.hpp"
#include "fsf/fairy_stockfish.hpp"
#include "fsf_variant.hpp"
#include "fuzz/properties.hpp"
#include "mutate/run_mutants.hpp"
#include "properties/property_plan.hpp"
#include "reference.hpp"
#include "summary.hpp"

namespace arb::cli {

namespace {

// A budget in seconds as a person writes it: 2, 0.5 (not 2.000000).
std::string fmt_seconds(double s) {
  std::ostringstream o;
  o << s;
  return o.str();
}

std::string percent(double x) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(1) << 100.0 * x << "%";
  return o.str();
}

std::string where(const std::string& path, const arb::mutate::RuleMutant& m) {
  return path + ":" + std::to_string(m.line) + ":" + std::to_string(m.col);
}

// The original line and the mutated one, `-`/`+` as a diff shows them.
std::string shown(const std::string& original_text, const arb::mutate::RuleMutant& m) {
  size_t b = original_text.rfind('\n', m.offset == 0 ? 0 : m.offset - 1);
  b = (b == std::string::npos || m.offset == 0) ? 0 : b + 1;
  size_t e = original_text.find('\n', m.offset);
  std::string before = original_text.substr(b, (e == std::string::npos ? original_text.size() : e) - b);
  return "    - " + before + "\n    + " + m.mutated_line() + "\n";
}

Json result_json(const std::string& path, const arb::mutate::MutantResult& r) {
  const auto& m = r.mutant;
  Json j = {{"file", path}, {"line", m.line},           {"col", m.col},
            {"op", m.op},   {"construct", m.construct}, {"from", m.from},
            {"to", m.to},   {"mutation", m.describe()}, {"verdict", r.verdict},
            {"how", r.how}, {"games", r.games},         {"seconds", r.seconds}};
  if (r.divergence) j["divergence"] = arb::fuzz::to_json(*r.divergence);
  return j;
}

arb::fuzz::Divergence as_divergence(const arb::fuzz::Violation& v) {
  arb::fuzz::Divergence d;
  d.what = "property " + v.property;
  d.position = v.position;
  d.action = v.after;
  d.left = v.left;
  d.right = v.right;
  d.diff = v.diff;
  d.plies = v.plies;
  return d;
}

}  // namespace

int cmd_mutate(const std::vector<std::string>& args) {
  std::vector<std::string> files, sets;
  std::string against = "original", junit, summary, fsf_variant, fsf_variant_path, fsf_engine, games_text,
              seconds_text, seed_text, jobs_text, plies_text, mutate_text, timeout_text, min_score_text;
  bool json = false, list = false, no_bias = false;
  arb::mutate::MutateOptions mo;
  mo.fuzz.games = 200;
  mo.fuzz.seed = 11;
  double min_score = 1.0;
  po::options_description d(
      "arbiter mutate FILE.rules [--against original|reference|fairy-stockfish|properties|grid]\n"
      "               [--games N | --seconds S] [--jobs J]\n"
      "               [--seed K] [--min-score PERCENT] [--list] [--json] [--junit FILE]");
  d.add_options()("file", po::value(&files), "the ruleset file")(
      "against", po::value(&against),
      "what each mutant is compared with: original (the ruleset as written, default), reference (the "
      "variant's reference engine), fairy-stockfish (--fsf-variant NAME, else the ruleset's `fairy-stockfish "
      "NAME`, else the ruleset exported), properties (no oracle: the metamorphic properties the original's "
      "statements promise, checked on the mutant alone; 5 games each unless --games), grid (the original "
      "compiled for the grid back end on its bounded board; a ruleset it cannot run is refused with every "
      "blocking statement)")("fsf-variant", po::value(&fsf_variant), "Fairy-Stockfish's UCI_Variant")(
      "fsf-variant-path", po::value(&fsf_variant_path), "a Fairy-Stockfish variants.ini (VariantPath)")(
      "fsf-engine", po::value(&fsf_engine), "which Fairy-Stockfish: a command, or wasm:DIR")(
      "summary", po::value(&summary), "also write a short Markdown summary (score, each survivor) to FILE")(
      "set", po::value(&sets)->composing(), "option override NAME=VALUE for the original and every mutant")(
      "games", po::value(&games_text), "random games per mutant (default 200)")(
      "seconds", po::value(&seconds_text), "fuzz each mutant this long instead")(
      "seed", po::value(&seed_text), "random seed of the fuzzer (11)")("max-plies", po::value(&plies_text),
                                                                       "longest game (120)")(
      "mutate", po::value(&mutate_text), "chance in percent per ply of mutating the position (6)")(
      "jobs", po::value(&jobs_text), "mutants judged in parallel (1)")(
      "min-score", po::value(&min_score_text), "exit 1 below this mutation score in percent (100)")(
      "list", po::bool_switch(&list), "list the mutants without judging them")(
      "no-bias", po::bool_switch(&no_bias), "the fuzzer's unbiased games (see arbiter fuzz --no-bias)")(
      "json", po::bool_switch(&json), "machine-readable output")(
      "junit", po::value(&junit), "also write one JUnit case per mutant to FILE (survivors fail)")(
      "timeout", po::value(&timeout_text), kTimeoutHelp);
  if (print_help(d, args)) return kOk;
  po::variables_map vm = parse_command_line(args, d, "file");
  if (files.size() != 1) throw UsageError("arbiter mutate takes exactly one ruleset file");
  const std::string path = files[0];
  if (against != "original" && against != "reference" && against != "fairy-stockfish" &&
      against != "properties" && against != "grid")
    throw UsageError(
        "--against must be `original`, `reference`, `fairy-stockfish`, `properties` or `grid`, not `" +
        against + "`");
  if (against != "fairy-stockfish" &&
      (vm.count("fsf-variant") || vm.count("fsf-variant-path") || vm.count("fsf-engine")))
    throw UsageError("--fsf-variant, --fsf-variant-path and --fsf-engine go with --against fairy-stockfish");
  if (vm.count("games")) mo.fuzz.games = uint_option("games", games_text, 1, 1000000000);
  if (vm.count("seconds")) mo.fuzz.seconds = seconds_option("seconds", seconds_text, 0.001, kMaxTimeout);
  if (vm.count("seconds") && vm.count("games")) throw UsageError("give --seconds or --games, not both");
  if (vm.count("seed")) mo.fuzz.seed = uint_option("seed", seed_text, 0, UINT64_MAX);
  if (vm.count("max-plies"))
    mo.fuzz.max_plies = static_cast<int>(int_option("max-plies", plies_text, 1, 100000));
  if (vm.count("mutate"))
    mo.fuzz.mutate_percent = static_cast<int>(int_option("mutate", mutate_text, 0, 100));
  if (vm.count("jobs")) mo.jobs = static_cast<int>(int_option("jobs", jobs_text, 1, arb::kMaxJobs));
  if (vm.count("min-score")) min_score = seconds_option("min-score", min_score_text, 0, 100) / 100.0;
  double timeout = vm.count("timeout") ? seconds_option("timeout", timeout_text, 0, kMaxTimeout) : 0;
  check_input_file(path, "ruleset", arb::lang::kMaxRulesetBytes);
  if (vm.count("junit")) check_output_path(junit, {path}, "junit");
  if (vm.count("summary")) check_output_path(summary, {path}, "summary");
  mo.overrides = parse_sets(sets);
  mo.fuzz.bias = !no_bias;
  std::string original_text;
  {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    original_text = ss.str();
  }
  if (list) {
    auto mutants = arb::mutate::generate_mutants(path, original_text);
    if (json) {
      Json j = {{"file", path}, {"mutants", Json::array()}};
      for (const auto& m : mutants)
        j["mutants"].push_back({{"line", m.line},
                                {"col", m.col},
                                {"op", m.op},
                                {"construct", m.construct},
                                {"mutation", m.describe()}});
      std::cout << json_text(j) << "\n";
    } else {
      for (const auto& m : mutants)
        std::cout << where(path, m) << ": " << m.op << " (" << m.construct << "): " << m.describe() << "\n";
      std::cout << plural(mutants.size(), "mutant") << "\n";
    }
    return kOk;
  }
  if (against == "reference") {
    // The reference that plays the original ruleset, opened as every engine is (a
    // designer's descendant of a variant with a reference gets it with its deck or hand).
    arb::registry::EngineSpec spec;
    spec.kind = arb::registry::EngineKind::Reference;
    spec.rules = path;
    spec.options = mo.overrides;
    arb::registry::OpenedEngine opened;
    try {
      arb::lang::Diagnostics diags;
      opened = arb::registry::open_engine(spec, diags);
    } catch (const arb::registry::OpenError& e) {
      throw UsageError(std::string("--against reference: ") + e.what());
    }
    if (!opened.engine) throw UsageError("--against reference: the ruleset does not load");
    mo.oracle = opened.make;
    mo.oracle_name = "reference:" + opened.variant;
  }
  std::optional<FsfVariant> exported;
  if (against == "grid" || against == "properties" || against == "fairy-stockfish") {
    arb::lang::Diagnostics diags;
    auto original = compile_ruleset(path, mo.overrides, diags);
    if (!original.model || !original.program) {
      std::cerr << diags.render() << path << ": the original ruleset does not compile\n";
      return kBadInput;
    }
    const arb::lang::Model& m = *original.model;
    if (against == "grid") {
      // The original compiled for the grid back end on its bounded board (issue 26): each
      // mutant's bitboard engine is judged against it, as against a reference.
      arb::lang::Diagnostics gd;
      auto grid = arb::lang::compile_bounded_grid(m, original.program, gd);
      if (!grid) {
        std::string text = gd.render();
        while (!text.empty() && text.back() == '\n') text.pop_back();
        throw UsageError("--against grid: the grid back end cannot run the original on its bounded board:\n" +
                         text + "\n(try --against properties or fairy-stockfish)");
      }
      mo.oracle = [grid] { return arb::lang::make_bounded_grid_engine(grid); };
      mo.oracle_name = "grid";
    } else if (against == "properties") {
      // The properties the original's statements promise, checked on each mutant alone.
      const arb::fuzz::PropertyPlan plan = arb::properties::plan_for(m);
      arb::fuzz::PropertyOptions po_;
      po_.seed = mo.fuzz.seed;
      po_.games = vm.count("games") ? mo.fuzz.games : 5;
      po_.seconds = mo.fuzz.seconds;
      po_.max_plies = vm.count("max-plies") ? mo.fuzz.max_plies : 60;
      po_.mutate_percent = mo.fuzz.mutate_percent;
      po_.stop = mo.stop;
      if (!vm.count("games") && !vm.count("seconds")) mo.fuzz.games = po_.games;
      mo.self_check = [plan, po_](const arb::fuzz::EngineFactory& engines,
                                  const std::string& start) -> std::optional<arb::fuzz::Divergence> {
        auto r = arb::fuzz::check_properties(engines, start, plan, po_);
        if (!r.violation) return std::nullopt;
        return as_divergence(*r.violation);
      };
      mo.self_check_original = [plan](const arb::fuzz::EngineFactory& engines,
                                      const arb::fuzz::Divergence& d) {
        auto e = engines();
        try {
          e->set_position(d.position);
        } catch (const std::exception&) {
          return false;
        }
        auto p = arb::fuzz::property_named(d.what.substr(std::string("property ").size()));
        for (uint64_t s = 1; s <= 16; ++s)
          if (arb::fuzz::check_node(*e, engines, plan, s, true, p)) return true;
        return false;
      };
      mo.oracle_name = "properties";
    } else {
      arb::registry::EngineSpec spec;
      spec.kind = arb::registry::EngineKind::FairyStockfish;
      spec.options = mo.overrides;
      spec.fsf_engine = fsf_engine;
      spec.fsf_variant = fsf_variant.empty() ? m.fsf_variant : fsf_variant;
      spec.fsf_variant_path = fsf_variant_path;
      if (spec.fsf_variant.empty()) {
        exported.emplace(m, path, fsf_engine);
        spec.fsf_variant = exported->variant();
        spec.fsf_variant_path = exported->variant_path();
      }
      arb::registry::OpenedEngine opened;
      try {
        arb::lang::Diagnostics od;
        opened = arb::registry::open_engine(spec, od);
      } catch (const arb::registry::OpenError& e) {
        throw UsageError(std::string("--against fairy-stockfish: ") + e.what());
      }
      if (!opened.engine) throw UsageError("--against fairy-stockfish: the engine does not start");
      mo.oracle = opened.make;
      mo.oracle_name = opened.engine->name();
    }
  }
  arb::ProgressLine bar("mutate", "mutants", 0, progress_wanted(json));
  mo.on_result = [&](const arb::mutate::MutantResult& r, size_t done, size_t total) {
    (void)r;
    bar.set_total(total);
    bar.update(done);
  };
  Watchdog watchdog(timeout, "mutate");
  arb::mutate::MutateReport rep;
  try {
    rep = arb::mutate::run_mutants(path, mo);
  } catch (const arb::mutate::OriginalError& e) {
    std::cerr << e.what() << "\n";
    return kBadInput;
  }
  watchdog.disarm();
  bar.finish();
  const double score = rep.score();
  const bool ok = score + 1e-12 >= min_score;
  size_t live = rep.results.size() - rep.equivalent;
  std::string budget =
      mo.fuzz.seconds > 0 ? fmt_seconds(mo.fuzz.seconds) + " s" : plural(mo.fuzz.games, "game");
  if (!junit.empty()) {
    std::vector<JUnitCase> cases;
    for (const auto& r : rep.results) {
      JUnitCase tc;
      tc.name = where(path, r.mutant) + ": " + r.mutant.op + " " + r.mutant.describe();
      tc.classname = "arbiter.mutate." + r.verdict;
      tc.seconds = r.seconds;
      tc.failed = r.verdict == "survived";
      tc.message = tc.failed ? "mutant survived: nothing tells `" + r.mutant.describe() + "` apart" : "";
      tc.output = r.verdict + ": " + r.how + "\n" + shown(original_text, r.mutant);
      cases.push_back(tc);
    }
    write_atomically(junit, junit_xml("arbiter mutate " + path, cases));
  }
  if (!summary.empty()) {
    std::ostringstream md;
    md << "## arbiter mutate: " << path << " against " << rep.oracle << (ok ? " (passed)" : " (FAILED)")
       << "\n\n"
       << plural(rep.results.size(), "mutant") << " (" << budget << " each): " << rep.killed << " killed, "
       << rep.refused << " refused, " << rep.equivalent << " equivalent, " << rep.survived
       << " survived; mutation score " << percent(score) << " (minimum " << percent(min_score) << ")\n\n";
    for (const auto& r : rep.results)
      if (r.verdict == "survived")
        md << "- survived: `" << where(path, r.mutant) << "` " << r.mutant.op << " (" << r.mutant.construct
           << "): " << r.mutant.describe() << "\n";
    md << "\n";
    write_atomically(summary, md.str());
  }
  if (json) {
    Json j = {{"file", path},
              {"against", rep.oracle},
              {"budget", budget},
              {"seed", mo.fuzz.seed},
              {"mutants", rep.results.size()},
              {"killed", rep.killed},
              {"refused", rep.refused},
              {"equivalent", rep.equivalent},
              {"survived", rep.survived},
              {"score", score},
              {"ok", ok},
              {"seconds", rep.seconds},
              {"results", Json::array()}};
    for (const auto& r : rep.results) j["results"].push_back(result_json(path, r));
    std::cout << json_text(j) << "\n";
  } else {
    for (const auto& r : rep.results) {
      if (r.verdict != "survived" && r.verdict != "equivalent") continue;
      std::cout << where(path, r.mutant) << ": " << r.verdict << ": " << r.mutant.op << " ("
                << r.mutant.construct << ") " << r.mutant.describe() << "\n"
                << shown(original_text, r.mutant) << "    " << r.how << "\n";
    }
    std::cout << path << ": " << plural(rep.results.size(), "mutant") << " against " << rep.oracle << " ("
              << budget << " each): " << rep.killed << " killed, " << rep.refused
              << " refused by the compiler, " << rep.equivalent << " equivalent, " << rep.survived
              << " survived; mutation score " << (rep.killed + rep.refused) << "/" << live << " = "
              << percent(score) << " in " << std::fixed << std::setprecision(1) << rep.seconds << " s\n";
  }
  return ok ? kOk : kFailed;
}

}  // namespace arb::cli
