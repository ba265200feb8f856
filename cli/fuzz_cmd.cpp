// arbiter fuzz: differential fuzzing of the compiled generator against the reference engine.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <random>
#include <sstream>

#include "arbiter/lang/export_fsf.hpp"
#include "arbiter/lang/grid_bounded.hpp"
#include "arbiter/parallel.hpp"
#include "arbiter/synth/diagram.hpp"
#include "common.hpp"
#include "fsf/fairy_stockfish.hpp"
#include "fsf_variant.hpp"
#include "fuzz/fuzz.hpp"
#include "fuzz/properties.hpp"
#include "registry/engines.hpp"
#include "registry/variants.hpp"
#include "summary.hpp"

namespace arb::cli {

namespace {

std::string divergence_text(const arb::fuzz::Divergence& dv, const std::string& left,
                            const std::string& right) {
  std::ostringstream o;
  o << "DIVERGENCE (" << dv.what << ") at ply " << dv.plies << ", shrunk:\n  position:  " << dv.position;
  if (!dv.action.empty()) o << "\n  after:     " << dv.action;
  o << "\n  " << left << ": " << dv.left << "\n  " << right << ": " << dv.right << "\n";
  if (!dv.diff.empty())
    o << "  difference (+ " << left << " only, - " << right << " only): " << dv.diff << "\n";
  return o.str();
}

// The grid back end compiled for the ruleset's bounded board (issue 26): every engine of
// the grid side runs this program. A ruleset it cannot run is refused with every statement
// that blocks it, each at its file:line:col.
arb::fuzz::EngineFactory grid_engines(const Loaded& l) {
  if (!l.compiled.model) throw UsageError("--against grid needs a ruleset (--rules FILE or --variant NAME)");
  arb::lang::Diagnostics diags;
  auto grid = arb::lang::compile_bounded_grid(*l.compiled.model, l.compiled.program, diags);
  if (!grid) {
    std::string text = diags.render();
    while (!text.empty() && text.back() == '\n') text.pop_back();
    throw UsageError("--against grid: the grid back end cannot run this ruleset on its bounded board:\n" +
                     text + "\n(compare with --against fairy-stockfish, z3-mate1 or --properties)");
  }
  return [grid] { return arb::lang::make_bounded_grid_engine(grid); };
}

}  // namespace

// properties_cmd.cpp: the metamorphic properties of the compiled generator alone.
int fuzz_properties(const Common& c, const Loaded& l, const arb::fuzz::PropertyOptions& opts,
                    const std::string& junit, const std::string& summary, const std::string& why, int jobs);
// mate1_cmd.cpp: Z3's mate-in-1 answers against the compiled generator's.
int fuzz_z3_mate1(const Common& c, const Loaded& l, uint64_t seed, uint64_t games, uint64_t endings,
                  int max_plies, const std::string& junit, const std::string& summary);

// Differential fuzzing of the compiled generator against the reference engine, or against
// Fairy-Stockfish (--against fairy-stockfish --fsf-variant NAME) for a ruleset without one.
int cmd_fuzz(const std::vector<std::string>& args) {
  Common c;
  arb::fuzz::Options o;
  int jobs = 1;
  bool strict = false, no_bias = false, properties = false;
  std::string junit, summary, against = "reference";
  // Divergences are saved in the current directory unless --save-dir says otherwise: never
  // into the source tree behind the user's back.
  std::string save_dir = ".";
  std::string seconds_text, games_text, seed_text, max_plies_text, jobs_text, mutate_text, max_div_text,
      timeout_text, matchups_text, positions_text, sample_text;
  po::options_description d(
      "arbiter fuzz (--variant V | --rules F) [--against reference | --against fairy-stockfish "
      "--fsf-variant NAME [--fsf-variant-path INI]] [--seconds S | --games N] [--seed K] [--jobs J] "
      "[--strict-acceptance] [--json] [--junit FILE]");
  add_common(d, c, /*with_seed=*/false);
  d.add_options()("seconds", po::value(&seconds_text), "run for this long")(
      "games", po::value(&games_text), "number of random games (default 100)")(
      "seed", po::value(&seed_text), "random seed (runs are deterministic for a seed and a job count)")(
      "max-plies", po::value(&max_plies_text), "longest game (120)")("jobs", po::value(&jobs_text),
                                                                     "parallel jobs (1)")(
      "mutate", po::value(&mutate_text), "chance in percent per ply of mutating the position (6; 0: never)")(
      "strict-acceptance", po::bool_switch(&strict), "a text only one engine accepts is a divergence")(
      "no-bias", po::bool_switch(&no_bias),
      "unbiased games: no targeted mutations (endings, castling rights, en passant, promotion, full and "
      "empty hands) and no back-and-forth stretches")(
      "coverage", po::bool_switch(&o.coverage),
      "count what the games exercise (end conditions, claims, castling, en passant, promotion, placement, "
      "endings, mutations) per 1,000 games")(
      "max-divergences", po::value(&max_div_text),
      "go on after a divergence until this many distinct ones are found (1)")(
      "save-dir", po::value(&save_dir), "where divergences are saved (default: the current directory)")(
      "junit", po::value(&junit), "also write the result as JUnit XML to FILE")(
      "summary", po::value(&summary),
      "also write a short Markdown summary (counts, each divergence with a diagram) to FILE")(
      "positions", po::value(&positions_text),
      "--against z3-mate1: random endings compared besides one position of each game (20)")(
      "properties", po::bool_switch(&properties),
      "check the generator's metamorphic properties alone (colour flip, mirror, colour rotation, "
      "translation, apply and undo, perft by copy, read-back, transposition); the default when the "
      "ruleset has no reference engine and no --against is given")(
      "action-sample", po::value(&sample_text),
      "--properties: at a node with more actions, the per-action checks (apply and undo, each action's "
      "texts read back, perft-copy's subtrees) take this many, drawn at random (64; 0: every action)")(
      "against", po::value(&against),
      "the second engine: reference (the variant's hand-written engine, default) or fairy-stockfish "
      "(--fsf-variant NAME, else the ruleset's `fairy-stockfish NAME`, else the ruleset exported as a "
      "variants.ini section; --fsf-engine wasm:DIR runs current Fairy-Stockfish), grid (the same ruleset "
      "compiled for the grid back end on its bounded board), properties or z3-mate1")(
      "matchups", po::value(&matchups_text),
      "Chess 2: split the games over N random army pairs (options white-army and black-army) and "
      "random Chess960 starts")("start-seed", po::value(&c.seed),
                                "start from the position --seed gives other commands (Chess 2: the dice "
                                "procedure's back rank, ChessMe: the shuffled piles)")(
      "timeout", po::value(&timeout_text), kTimeoutHelp);
  if (print_help(d, args)) return kOk;
  po::variables_map vm = parse_command_line(args, d);
  c.given(vm, /*with_seed=*/false);
  if (vm.count("start-seed")) uint_option("start-seed", c.seed, 0, UINT64_MAX);
  if (vm.count("seconds")) o.seconds = seconds_option("seconds", seconds_text, 0.001, kMaxTimeout);
  if (vm.count("games")) o.games = uint_option("games", games_text, 1, 1000000000);
  if (vm.count("seconds") && vm.count("games")) throw UsageError("give --seconds or --games, not both");
  if (vm.count("seed")) o.seed = uint_option("seed", seed_text, 0, UINT64_MAX);
  if (vm.count("max-plies"))
    o.max_plies = static_cast<int>(int_option("max-plies", max_plies_text, 1, 100000));
  if (vm.count("jobs")) jobs = static_cast<int>(int_option("jobs", jobs_text, 1, arb::kMaxJobs));
  if (vm.count("mutate")) o.mutate_percent = static_cast<int>(int_option("mutate", mutate_text, 0, 100));
  if (vm.count("max-divergences"))
    o.max_divergences = static_cast<size_t>(int_option("max-divergences", max_div_text, 1, 1000));
  double timeout = vm.count("timeout") ? seconds_option("timeout", timeout_text, 0, kMaxTimeout) : 0;
  if (vm.count("save-dir") && save_dir.empty()) throw UsageError("--save-dir needs a directory");
  // A divergence is saved after the run: a --save-dir that is a file (or lies in one) is
  // refused now, not after minutes of fuzzing.
  if (vm.count("save-dir")) {
    std::error_code ec;
    if (fs::exists(save_dir, ec) && !fs::is_directory(save_dir, ec))
      throw UsageError("--save-dir " + save_dir + ": is not a directory");
    check_output_path((fs::path(save_dir) / "divergence").string(), {}, "save-dir");
  }
  if (vm.count("junit")) check_output_path(junit, input_files(c), "junit");
  if (vm.count("summary")) check_output_path(summary, input_files(c), "summary");
  if (against == "properties") properties = true;
  if (properties && vm.count("against") && against != "properties")
    throw UsageError("--properties checks the generator alone: give it without --against " + against);
  o.strict_acceptance = strict;
  o.bias = !no_bias;
  if (c.engine != "compiled")
    throw UsageError("fuzz always runs the compiled generator; --against names the second engine");
  if (against != "reference" && against != "fairy-stockfish" && against != "properties" &&
      against != "z3-mate1" && against != "grid")
    throw UsageError(
        "--against must be `reference`, `fairy-stockfish`, `properties`, `z3-mate1` or `grid`, not `" +
        against + "`");
  if (against == "reference" &&
      (!c.fsf_variant.empty() || !c.fsf_variant_path.empty() || !c.fsf_engine.empty()))
    throw UsageError("--fsf-variant, --fsf-variant-path and --fsf-engine go with --against fairy-stockfish");
  if (c.fsf_variant.empty() && !c.fsf_variant_path.empty())
    throw UsageError("--fsf-variant-path needs --fsf-variant (the section of the file to play)");
  Watchdog watchdog(timeout, "fuzz");
  Loaded l = load_engine(c);
  if (!l.engine) return kBadInput;
  if (against == "z3-mate1") {
    // --games: games from the start (one position each, 2 by default); --positions: random
    // endings (20).
    const uint64_t endings = vm.count("positions") ? uint_option("positions", positions_text, 0, 100000) : 20;
    const int rc = fuzz_z3_mate1(c, l, o.seed, vm.count("games") ? o.games : 2, endings,
                                 vm.count("max-plies") ? o.max_plies : 60, junit, summary);
    watchdog.disarm();
    return rc;
  }
  std::optional<arb::fuzz::EngineFactory> grid;
  if (against == "grid") {
    if (vm.count("matchups")) throw UsageError("--matchups runs against the reference engine only");
    grid = grid_engines(l);
  }
  // No --against and no reference engine for the ruleset: its properties are its check.
  std::string why_properties;
  if (!properties && !vm.count("against") && l.compiled.model) {
    arb::registry::EngineSpec probe = engine_spec(c);
    probe.position.clear();
    probe.seed.reset();
    probe.kind = arb::registry::EngineKind::Reference;
    try {
      arb::lang::Diagnostics pd;
      if (!arb::registry::open_engine(probe, pd).engine) throw arb::registry::OpenError("no reference");
    } catch (const arb::registry::OpenError& e) {
      properties = true;
      why_properties = std::string("no reference engine (") + e.what() +
                       "): checking the generator's metamorphic properties";
    }
  }
  if (properties) {
    if (vm.count("matchups") || strict || no_bias || o.coverage)
      throw UsageError(
          "--properties takes --games/--seconds, --seed, --jobs, --max-plies, --mutate, --action-sample, "
          "--json, --junit, --summary");
    arb::fuzz::PropertyOptions po_;
    po_.seed = o.seed;
    po_.games = vm.count("games") ? o.games : 20;
    po_.seconds = o.seconds;
    po_.max_plies = vm.count("max-plies") ? o.max_plies : 60;
    po_.mutate_percent = o.mutate_percent;
    if (vm.count("action-sample"))
      po_.action_sample = static_cast<int>(int_option("action-sample", sample_text, 0, 1000000));
    const int rc = fuzz_properties(c, l, po_, junit, summary, why_properties, jobs);
    watchdog.disarm();
    return rc;
  }
  if (vm.count("action-sample")) throw UsageError("--action-sample is a --properties option");
  // The reference plays the game the --set options choose too (No Stress Chess's level),
  // and a ruleset descending from a variant with a reference gets that reference with the
  // options stating what it changes (a deck, a hand: registry::reference_of).
  const auto sets = parse_sets(c.sets);
  const std::string variant = l.variant;
  arb::fuzz::EngineFactory left = l.make;
  std::string start = l.engine->position();
  // The second engine, opened as every engine is (registry::open_engine): Fairy-Stockfish
  // started and checked once (exit 2 when it is missing or refuses the variant), every job
  // and shrinking step a clone of it; or the reference that plays the ruleset, given the
  // options that state what a descendant changes (a deck, a hand: registry::reference_of).
  arb::registry::EngineSpec right_spec = engine_spec(c);
  right_spec.position.clear();
  right_spec.seed.reset();
  right_spec.kind = against == "fairy-stockfish" ? arb::registry::EngineKind::FairyStockfish
                                                 : arb::registry::EngineKind::Reference;
  // Fairy-Stockfish without --fsf-variant: the variant the ruleset says it equals, else the
  // ruleset exported (FsfVariant).
  std::optional<FsfVariant> fsf_variant;
  if (against == "fairy-stockfish" && c.fsf_variant.empty()) {
    if (!l.compiled.model) throw UsageError("--against fairy-stockfish needs --fsf-variant NAME here");
    fsf_variant.emplace(*l.compiled.model, rules_path(c), c.fsf_engine);
    right_spec.fsf_variant = fsf_variant->variant();
    right_spec.fsf_variant_path = fsf_variant->variant_path();
    if (!fsf_variant->exported().empty() && !c.json)
      std::cout << "fairy-stockfish: the ruleset exported as " << fsf_variant->exported() << "\n";
  }
  arb::fuzz::EngineFactory right;
  std::string right_name = "grid";
  if (grid) {
    right = *grid;
    try {
      right()->set_position(start);
    } catch (const arb::PositionError& e) {
      throw UsageError("the grid back end refuses the ruleset's start " + start + ": " + e.what());
    }
  } else {
    arb::registry::OpenedEngine opened;
    try {
      arb::lang::Diagnostics rd;
      opened = arb::registry::open_engine(right_spec, rd);
      if (!opened.engine) throw UsageError("the ruleset does not load for the reference engine");
    } catch (const arb::registry::OpenError& e) {
      if (against == "fairy-stockfish") throw UsageError(e.what());
      throw UsageError(std::string(e.what()) +
                       " (try --against fairy-stockfish --fsf-variant NAME when Fairy-Stockfish knows it)");
    }
    right = opened.make;
    right_name = against == "fairy-stockfish" ? opened.engine->name() : "reference";
    if (against == "fairy-stockfish") {
      try {
        opened.engine->set_position(start);
      } catch (const arb::PositionError& e) {
        throw UsageError(right_name + " refuses the ruleset's start " + start + ": " + e.what());
      }
      if (matchups_text.size()) throw UsageError("--matchups runs against the reference engine only");
    }
  }
  o.progress = progress_wanted(c.json);
  std::string sets_text;
  for (const auto& s : c.sets) sets_text += (sets_text.empty() ? "" : " ") + s;
  // The --set options of each divergence (with --matchups, the pair and start it ran).
  std::vector<std::string> dv_sets;
  arb::fuzz::Report r;
  if (!vm.count("matchups")) {
    r = arb::fuzz::run_parallel(left, right, start, o, jobs);
    dv_sets.assign(r.divergences.size(), sets_text);
  } else {
    // Random army pairs and Chess960 starts: each round compiles the pair (a pair the
    // compiler refuses is skipped and counted) and runs its share of the games.
    const uint64_t rounds = uint_option("matchups", matchups_text, 1, 100000);
    const arb::lang::OptionDef* wa = l.compiled.model ? l.compiled.model->option("white-army") : nullptr;
    const arb::lang::OptionDef* ba = l.compiled.model ? l.compiled.model->option("black-army") : nullptr;
    if (!wa || !ba || wa->choices.empty() || ba->choices.empty() || o.seconds > 0)
      throw UsageError(
          "--matchups needs a ruleset with `white-army` and `black-army` options listing their "
          "values (Chess 2), and --games rather than --seconds");
    std::mt19937_64 rng(o.seed);
    arb::fuzz::Options each = o;
    each.games = std::max<uint64_t>(1, o.games / rounds);
    uint64_t skipped = 0;
    for (uint64_t i = 0; i < rounds && !r.divergence; ++i) {
      auto over = sets;
      over["white-army"] = wa->choices[rng() % wa->choices.size()];
      over["black-army"] = ba->choices[rng() % ba->choices.size()];
      const std::string pick_start = "start:" + std::to_string(rng() % 960);
      arb::lang::Diagnostics diags;
      auto pc = compile_ruleset(rules_path(c), over, diags);
      if (!pc.program) {
        ++skipped;
        continue;
      }
      arb::registry::EngineSpec rs = right_spec;
      rs.options = over;
      arb::lang::Diagnostics od;
      arb::fuzz::EngineFactory lf = arb::registry::program_engines(pc.program);
      arb::fuzz::EngineFactory rf = arb::registry::open_engine(rs, od).make;
      auto probe = lf();
      probe->set_position(pick_start);
      each.seed = o.seed + i;
      arb::fuzz::Report one = arb::fuzz::run_parallel(lf, rf, probe->position(), each, jobs);
      std::string st = "white-army=" + over["white-army"] + " black-army=" + over["black-army"];
      r.games += one.games;
      r.positions += one.positions;
      r.mutations += one.mutations;
      r.mutations_rejected += one.mutations_rejected;
      r.acceptance_differences += one.acceptance_differences;
      for (auto& a : one.acceptance_examples)
        if (r.acceptance_examples.size() < 5) r.acceptance_examples.push_back(a);
      r.seconds += one.seconds;
      for (auto& dv : one.divergences) {
        r.divergences.push_back(dv);
        dv_sets.push_back(st);
      }
      if (one.divergence) r.divergence = one.divergence;
    }
    if (!c.json)
      std::cout << "matchups: " << rounds << " random army pairs and Chess960 starts, " << skipped
                << " refused by the compiler (armies it does not run yet)\n";
  }
  watchdog.disarm();
  uint64_t rate = static_cast<uint64_t>(r.seconds > 0 ? r.positions / r.seconds : 0);
  std::vector<std::string> saved_files;
  for (size_t di = 0; di < r.divergences.size(); ++di) {
    const auto& dv = r.divergences[di];
    const std::string& sets = dv_sets[di];
    std::string body = "variant: " + variant + "\n" + (c.rules.empty() ? "" : "rules: " + c.rules + "\n") +
                       (sets.empty() ? "" : "sets: " + sets + "\n") + "position: " + dv.position +
                       "\naction: " + dv.action + "\nwhat: " + dv.what + "\ncompiled: " + dv.left + "\n" +
                       right_name + ": " + dv.right + "\ndiff: " + dv.diff +
                       "\nseed: " + std::to_string(o.seed) + "\njobs: " + std::to_string(jobs) + "\n";
    std::string name = variant + "-" +
                       std::to_string(std::hash<std::string>{}(dv.position + "|" + dv.action) % 1000000007) +
                       ".txt";
    try {
      write_atomically(fs::path(save_dir) / name, body);
      saved_files.push_back((fs::path(save_dir) / name).string());
    } catch (const std::exception& e) {
      std::cerr << "warning: could not save the divergence: " << e.what() << "\n";
    }
  }
  // Every divergence found, each followed by where it was saved.
  std::string detail;
  for (size_t i = 0; i < r.divergences.size(); ++i) {
    detail += divergence_text(r.divergences[i], "compiled", right_name);
    if (i < saved_files.size()) detail += "  saved: " + saved_files[i] + "\n";
  }
  if (!junit.empty()) {
    JUnitCase tc;
    tc.name = "fuzz " + variant + " seed " + std::to_string(o.seed);
    tc.classname = "arbiter.fuzz." + variant;
    tc.seconds = r.seconds;
    tc.failed = r.divergence.has_value();
    tc.message =
        r.divergence ? "compiled and " + right_name + " engines diverge (" + r.divergence->what + ")" : "";
    std::ostringstream out;
    out << plural(r.games, "game") << ", " << plural(r.positions, "position") << " compared (" << rate
        << "/s), " << plural(r.mutations, "mutation") << ", "
        << plural(r.acceptance_differences, "acceptance difference") << "\n"
        << detail;
    tc.output = out.str();
    write_atomically(junit, junit_xml("arbiter fuzz", {tc}));
  }
  if (!summary.empty()) {
    std::string md = "## arbiter fuzz: " + variant + " against " + right_name +
                     (r.divergence ? " (FAILED)" : " (passed)") + "\n\n" + plural(r.games, "game") + ", " +
                     plural(r.positions, "position") + " compared, " + plural(r.mutations, "mutation") +
                     ", " + plural(r.divergences.size(), "divergence") + "\n\n";
    const auto names =
        l.compiled.model ? arb::synth::piece_names(*l.compiled.model) : std::map<char, std::string>{};
    for (const auto& dv : r.divergences)
      md += markdown_divergence("divergence (" + dv.what + ")", divergence_text(dv, "compiled", right_name),
                                dv.position, names);
    write_atomically(summary, md);
  }
  if (c.json) {
    Json j = {{"variant", variant},
              {"seed", o.seed},
              {"jobs", jobs},
              {"games", r.games},
              {"positions", r.positions},
              {"seconds", r.seconds},
              {"against", right_name},
              {"positions_per_second", rate},
              {"mutations", r.mutations},
              {"mutations_rejected", r.mutations_rejected},
              {"acceptance_differences", r.acceptance_differences},
              {"acceptance_examples", Json::array()}};
    for (const auto& a : r.acceptance_examples) j["acceptance_examples"].push_back(arb::fuzz::to_json(a));
    j["divergence"] = r.divergence ? arb::fuzz::to_json(*r.divergence) : Json(nullptr);
    j["saved"] = saved_files.empty() ? "" : saved_files[0];
    j["divergences"] = Json::array();
    for (const auto& dv : r.divergences) j["divergences"].push_back(arb::fuzz::to_json(dv));
    if (o.coverage) j["coverage"] = arb::fuzz::coverage_json(r);
    std::cout << json_text(j) << "\n";
  } else {
    std::cout << "fuzz " << variant << " against " << right_name << ": " << plural(r.games, "game") << ", "
              << plural(r.positions, "position") << " compared in " << r.seconds << " s (" << rate
              << " positions/s); " << plural(r.mutations, "mutated position") << " played, "
              << plural(r.acceptance_differences, "acceptance difference") << "\n";
    for (const auto& a : r.acceptance_examples)
      std::cout << "  accepted only by the "
                << (a.accepted_by == "left" ? std::string("compiled") : right_name)
                << " engine: " << a.position << " (" << a.error << ")\n";
    if (o.coverage)
      std::cout << "coverage per 1,000 games (" << plural(r.games, "game") << "):\n"
                << arb::fuzz::coverage_text(r);
    if (r.divergence) {
      std::cout << detail;
    } else {
      std::cout << "no divergence\n";
    }
  }
  return r.divergence ? kFailed : kOk;
}

}  // namespace arb::cli
