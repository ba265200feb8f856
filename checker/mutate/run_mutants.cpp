#include "mutate/run_mutants.hpp"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

#include "arbiter/cleanup.hpp"
#include "arbiter/parallel.hpp"
#include "arbiter/wording.hpp"
#include "registry/engines.hpp"
#include "registry/variants.hpp"

namespace arb::mutate {

namespace fs = std::filesystem;

double MutateReport::score() const {
  size_t live = results.size() - equivalent;
  return live == 0 ? 1.0 : static_cast<double>(killed + refused) / static_cast<double>(live);
}

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A private directory for the mutants' files.
std::string private_dir() {
  std::string tmpl = (fs::temp_directory_path() / "arbiter-mutate-XXXXXX").string();
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  if (!mkdtemp(buf.data())) throw std::runtime_error("cannot create a temporary directory in " + tmpl);
  register_temp_dir(buf.data());  // removed on --timeout and on a signal too
  return buf.data();
}

// A mutant is compiled from a private directory; a relative `extends` target (`chess`,
// `"../../rulesets/chess"`) is read where the original's is: rewritten as the absolute
// path, so a parent outside the original's directory is found (the copies of the sibling
// rulesets covered only parents beside it).
std::string anchor_extends(const std::string& text, const fs::path& original_dir) {
  // The first line that starts with `ruleset`: `ruleset NAME extends TARGET`, TARGET a word
  // or a quoted path. (No std::regex: GCC 12 warns inside its automaton at -O3.)
  auto blank = [](char c) { return c == ' ' || c == '\t'; };
  size_t line = 0;
  while (line < text.size()) {
    size_t end = text.find('\n', line);
    if (end == std::string::npos) end = text.size();
    size_t i = line;
    auto skip = [&] {
      while (i < end && blank(text[i])) ++i;
    };
    auto word = [&] {
      size_t from = i;
      while (i < end && !blank(text[i]) && text[i] != '#') ++i;
      return text.substr(from, i - from);
    };
    skip();
    if (word() == "ruleset") {
      skip();
      word();
      skip();
      if (word() != "extends") return text;
      skip();
      const size_t from = i;
      std::string target;
      if (i < end && text[i] == '"') {
        const size_t close = text.find('"', i + 1);
        if (close == std::string::npos || close > end) return text;
        target = text.substr(i + 1, close - i - 1);
        i = close + 1;
      } else {
        target = word();
      }
      if (target.empty() || fs::path(target).is_absolute()) return text;
      const std::string anchored = fs::weakly_canonical(original_dir / target).string();
      if (anchored.find('"') != std::string::npos) return text;
      // A parent that is not beside the original (a bundled ruleset found along the search
      // path, `extends chess` from a designer's folder) stays a name for the search path.
      std::error_code ec;
      if (!fs::exists(anchored, ec) && !fs::exists(anchored + ".rules", ec)) return text;
      return text.substr(0, from) + '"' + anchored + '"' + text.substr(i);
    }
    line = end + 1;
  }
  return text;
}

std::string first_error(const arb::lang::Diagnostics& d) {
  for (const auto& x : d.all())
    if (x.severity == arb::lang::Severity::Error) {
      std::string where =
          x.loc.line ? std::to_string(x.loc.line) + ":" + std::to_string(x.loc.col) + ": " : "";
      return where + x.message;
    }
  return "refused";
}

std::string one_line(const arb::fuzz::Divergence& d) {
  std::string s = d.what + " at " + d.position;
  if (!d.action.empty()) s += " after " + d.action;
  if (!d.diff.empty())
    s += ": " + d.diff;
  else
    s += ": " + d.left + " / " + d.right;
  return s;
}

}  // namespace

arb::lang::Compiled compile_mutant(const RuleMutant& m, const std::string& original_path,
                                   const std::string& dir,
                                   const std::map<std::string, std::string>& overrides,
                                   arb::lang::Diagnostics& diags) {
  fs::path file = fs::path(dir) / fs::path(original_path).filename();
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << anchor_extends(m.text(), fs::absolute(fs::path(original_path)).parent_path());
  }
  // The registry's one compile call (an internal error becomes a diagnostic naming the file).
  return arb::registry::compile(file.string(), overrides, diags);
}

MutantResult judge(const RuleMutant& m, const std::string& original_path, const std::string& dir,
                   const std::shared_ptr<const arb::lang::Program>& original, const std::string& fingerprint,
                   const MutateOptions& o) {
  auto t0 = std::chrono::steady_clock::now();
  MutantResult r;
  r.mutant = m;
  arb::lang::Diagnostics diags;
  arb::lang::Compiled c = compile_mutant(m, original_path, dir, o.overrides, diags);
  auto done = [&] {
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
  };
  if (diags.has_errors() || !c.program) {
    r.verdict = "refused";
    r.how = first_error(diags);
    return done();
  }
  if (program_fingerprint(*c.program) == fingerprint) {
    r.verdict = "equivalent";
    r.how = "compiles to the same program as the original";
    return done();
  }
  arb::fuzz::EngineFactory mutant = arb::registry::program_engines(c.program);
  arb::fuzz::EngineFactory original_engines = arb::registry::program_engines(original);
  arb::fuzz::EngineFactory oracle = o.oracle ? o.oracle : original_engines;
  std::string start = original_engines()->position();
  std::string mutant_start = mutant()->position();
  if (o.self_check) {
    std::optional<arb::fuzz::Divergence> found;
    try {
      found = o.self_check(mutant, mutant_start);
    } catch (const std::exception& e) {
      r.verdict = "killed";
      r.how = std::string("the check refuses the mutant's start: ") + e.what();
      return done();
    }
    if (found && o.self_check_original && o.self_check_original(original_engines, *found)) {
      r.verdict = "survived";
      r.how = "the only finding is the original's too: " + one_line(*found);
      return done();
    }
    r.verdict = found ? "killed" : "survived";
    r.how = found ? one_line(*found) : "no property fails";
    r.divergence = found;
    return done();
  }
  if (mutant_start != start) {
    r.verdict = "killed";
    r.how = "start changed: " + mutant_start;
    arb::fuzz::Divergence d;
    d.what = "setup";
    d.position = start;
    d.left = mutant_start;
    d.right = start;
    r.divergence = d;
    return done();
  }
  arb::fuzz::Options fo = o.fuzz;
  fo.strict_acceptance = true;  // a text only one version accepts tells them apart
  fo.progress = false;
  fo.shared = nullptr;
  fo.stop = o.stop;
  fo.max_divergences = 1;
  arb::fuzz::Report rep;
  try {
    rep = arb::fuzz::run(mutant, oracle, start, fo);
  } catch (const std::exception& e) {
    r.verdict = "killed";
    r.how = std::string("the oracle refuses the start: ") + e.what();
    return done();
  }
  r.games = rep.games;
  if (rep.divergence) {
    // The divergence must be the mutation's: the original must not show it (against a
    // reference engine the original could disagree on its own).
    auto a = original_engines();
    auto b = oracle();
    if (o.oracle && arb::fuzz::reproduce(*a, *b, rep.divergence->position, rep.divergence->action)) {
      r.verdict = "survived";
      r.how = "the only divergence found is the original's too: " + one_line(*rep.divergence);
      return done();
    }
    r.verdict = "killed";
    r.how = one_line(*rep.divergence);
    r.divergence = rep.divergence;
    return done();
  }
  r.verdict = "survived";
  r.how = arb::plural(rep.games, "game") + ", " + arb::plural(rep.positions, "position") + ", no difference";
  return done();
}

MutateReport run_mutants(const std::string& path, const MutateOptions& o) {
  auto t0 = std::chrono::steady_clock::now();
  MutateReport report;
  report.path = path;
  report.oracle = o.oracle_name;
  arb::lang::Diagnostics diags;
  auto original = arb::registry::compile(path, o.overrides, diags);
  if (diags.has_errors() || !original.program)
    throw OriginalError(diags.render() + path + ": the original ruleset does not compile; " +
                        "mutants of a ruleset the compiler refuses tell nothing");
  std::string fingerprint = program_fingerprint(*original.program);
  std::string text = read_file(path);
  std::vector<RuleMutant> mutants = generate_mutants(path, text);
  report.results.resize(mutants.size());
  std::vector<bool> ran(mutants.size(), false);
  std::atomic<size_t> next{0}, finished{0};
  std::mutex mu;
  std::exception_ptr error;
  auto worker = [&] {
    std::string dir;
    try {
      dir = private_dir();
      for (;;) {
        if (o.stop && o.stop->load()) break;
        size_t i = next++;
        if (i >= mutants.size()) break;
        MutantResult r = judge(mutants[i], path, dir, original.program, fingerprint, o);
        std::lock_guard<std::mutex> lock(mu);
        report.results[i] = std::move(r);
        ran[i] = true;
        size_t n = ++finished;
        if (o.on_result) o.on_result(report.results[i], n, mutants.size());
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(mu);
      if (!error) error = std::current_exception();
    }
    std::error_code ec;
    if (!dir.empty()) {
      fs::remove_all(dir, ec);
      unregister_temp_dir(dir);
    }
  };
  int jobs = std::max(1, std::min<int>(o.jobs, static_cast<int>(std::max<size_t>(mutants.size(), 1))));
  parallel_for(jobs, [&](int, std::stop_token) { worker(); });
  if (error) std::rethrow_exception(error);
  std::vector<MutantResult> kept;
  for (size_t i = 0; i < mutants.size(); ++i)
    if (ran[i]) kept.push_back(std::move(report.results[i]));
  report.results = std::move(kept);
  for (const auto& r : report.results) {
    if (r.verdict == "killed") ++report.killed;
    if (r.verdict == "refused") ++report.refused;
    if (r.verdict == "equivalent") ++report.equivalent;
    if (r.verdict == "survived") ++report.survived;
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return report;
}

}  // namespace arb::mutate
