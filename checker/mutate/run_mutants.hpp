// Runs the checker on every single-point mutant of a ruleset (rule_mutants.hpp) and sorts
// each into one verdict:
//
//   refused     the compiler rejects the mutant (killed by the checker of the language)
//   equivalent  the mutant compiles to the original's program (proved: program_fingerprint)
//   killed      its start differs from the original's, or the differential fuzzer finds a
//               divergence between the mutant and the oracle (the original ruleset, or the
//               variant's reference engine), shrunk, that the original does not show
//   survived    nothing told it apart within the budget: the finding a designer reads
//
// The mutation score is (killed + refused) / (mutants - equivalent).
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "fuzz/fuzz.hpp"
#include "mutate/rule_mutants.hpp"

namespace arb::mutate {

struct MutantResult {
  RuleMutant mutant;
  std::string verdict;  // refused, equivalent, killed, survived
  std::string how;      // the compiler's first error, the reason, or what diverged (one line)
  std::optional<arb::fuzz::Divergence> divergence;
  uint64_t games = 0;  // games the fuzzer played on it
  double seconds = 0;
};

struct MutateOptions {
  std::map<std::string, std::string> overrides;  // --set, for the original and every mutant
  arb::fuzz::Options fuzz;                       // the budget per mutant (games or seconds)
  int jobs = 1;                                  // mutants run in parallel
  // The oracle every mutant is compared with; empty: the original ruleset, compiled.
  arb::fuzz::EngineFactory oracle;
  std::string oracle_name = "original";
  // Instead of an oracle, a check of the mutant alone (`arbiter mutate --against
  // properties`): what it finds on the mutant's engines from their start, as a divergence
  // (nullopt: nothing). A changed start then kills nothing by itself: such a check has no
  // start to expect.
  std::function<std::optional<arb::fuzz::Divergence>(const arb::fuzz::EngineFactory&,
                                                     const std::string& start)>
      self_check;
  // Whether the original shows the same finding at its position (then it is not the
  // mutation's, and the mutant survives).
  std::function<bool(const arb::fuzz::EngineFactory& original, const arb::fuzz::Divergence&)>
      self_check_original;
  // Called after each mutant (from the job that ran it; calls are serialized).
  std::function<void(const MutantResult&, size_t done, size_t total)> on_result;
  std::atomic<bool>* stop = nullptr;  // set: remaining mutants are left unrun
};

struct MutateReport {
  std::string path;
  std::string oracle;
  std::vector<MutantResult> results;  // in file order
  size_t killed = 0, refused = 0, equivalent = 0, survived = 0;
  double seconds = 0;
  // (killed + refused) / (mutants - equivalent), 1 when nothing is left to kill.
  double score() const;
};

// Thrown when the original ruleset itself does not compile (diagnostics rendered).
struct OriginalError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Compiles the original, generates the mutants and judges each. Mutants are compiled from
// private temporary directories, their `extends` target read where the original's is.
MutateReport run_mutants(const std::string& path, const MutateOptions& o);

// Judges one mutant text of the ruleset at `original_path` against its already compiled
// program (used by run_mutants and the tests). `dir` is a private directory where the
// mutant's file is written.
// Compiles one mutant of the ruleset at `original_path`: its text is written into `dir` (a
// private directory), its `extends` target read where the original's is. The compiler's
// errors are in `diags`; an internal error is reported there too, never thrown.
arb::lang::Compiled compile_mutant(const RuleMutant& m, const std::string& original_path,
                                   const std::string& dir,
                                   const std::map<std::string, std::string>& overrides,
                                   arb::lang::Diagnostics& diags);

MutantResult judge(const RuleMutant& m, const std::string& original_path, const std::string& dir,
                   const std::shared_ptr<const arb::lang::Program>& original, const std::string& fingerprint,
                   const MutateOptions& o);

}  // namespace arb::mutate
