// Validation of one game record against the engine of its variant: every action of the
// main line and of every variation, the result against the final position. See
// corpus/records/README.md for the record format.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "arbiter/engine.hpp"
#include "pgn.hpp"
#include "registry/catalogue.hpp"
#include "registry/open.hpp"

namespace arb::records {

// At most this many findings are kept for one game (then one `limit` error).
constexpr size_t kMaxFindings = 1000;

// One thing found in a record: an error makes the record invalid; a warning is reported
// and leaves it valid (`--strict` makes it an error). Codes: see validate.cpp.
enum class Severity : uint8_t { Error, Warning };
struct Finding {
  Severity severity = Severity::Error;
  std::string code;
  uint32_t line = 0, column = 0;
  int ply = 0;       // 1-based half-move index in its line of play (0: before the moves)
  std::string move;  // the text at fault as written
  std::string reason;
  bool in_variation = false;
  std::vector<std::string> alternatives;  // the legal actions nearest to it
};

// The verdict on one game.
struct GameReport {
  uint64_t game = 0;  // 1-based index in its file
  bool valid = true;
  std::string variant;
  int plies = 0;                                          // main-line plies read
  std::vector<std::pair<std::string, std::string>> tags;  // every tag, as read
  std::vector<Finding> findings;                          // every finding, in text order
  size_t errors = 0, warnings = 0;                        // as counted (after --strict)
  // The file could not be read at all (game 0): `reason` says why.
  bool unusable = false;
  double seconds = 0;  // the time its validation took
  // For an invalid game: the first error (the fields of findings[k]).
  uint32_t line = 0, column = 0;
  int ply = 0;       // 1-based half-move index of the offending action (in its line of play)
  std::string move;  // its text as written
  std::string kind;  // machine-readable class of the fault (see kinds in validate.cpp)
  std::string reason;
  bool in_variation = false;
  std::vector<std::string> alternatives;  // the legal actions nearest to it
};

// The engine that plays a record's game: the compiled generator when the ruleset compiles
// to one, otherwise the variant's reference engine; with the facts of its ruleset (the
// `records` block, the pieces' names, the royal pieces) that the explanations read.
struct RecordEngine : registry::RulesetFacts {  // what the ruleset states, for the explanations
  std::unique_ptr<Engine> engine;               // nullptr with `error` set
  std::string error;
  std::string variant;                  // the ruleset's name
  std::string start;                    // the position text of the start without a FEN tag
  std::string name(char letter) const;  // the piece's name ("piece X" when unknown)
};
RecordEngine make_record_engine(const std::string& ruleset_path,
                                const std::map<std::string, std::string>& options);

// Prototype engines by ruleset and options, built once per process (thread-safe).
class EngineCache {
 public:
  // `rulesets` is the folder of the bundled rulesets.
  explicit EngineCache(std::string rulesets) : rulesets_(std::move(rulesets)) {}
  // At most this many distinct rulesets-with-options in one run (each keeps a prototype
  // engine, and each validating thread a clone): past it a game gets a `limit` error.
  static constexpr size_t kMaxEngines = 64;
  const RecordEngine& get(const std::string& ruleset_path, const std::map<std::string, std::string>& options);
  const std::string& rulesets_dir() const { return rulesets_; }
  // `arbiter validate --rules FILE` (or `--variant NAME`): every record is of this ruleset,
  // whatever its [Variant] or [Rules] tag says (a designer's variant has no tag of its own).
  void force_rules(std::string path) { forced_ = std::move(path); }
  const std::string& forced_rules() const { return forced_; }
  // Whether a record in folder `dir` may name ruleset file `path` in a [Rules] tag: only
  // in that folder (or below it) or in a folder of the ruleset search path (the bundled
  // rulesets among them), symbolic links resolved; any with allow_any_rules(). `why` says
  // why not.
  bool rules_allowed(const std::filesystem::path& path, const std::string& dir, std::string& why) const;
  void allow_any_rules(bool yes) { any_rules_ = yes; }
  // The bundled ruleset a [Variant] tag names ("" for none), by the rulesets' `records`
  // blocks; and the tag map a ruleset file states (empty when it does not load). Both read
  // once per value and process.
  std::string ruleset_named(const std::string& variant_tag);
  const std::vector<registry::RecordTagMap>& tag_maps(const std::string& ruleset_path);

 private:
  std::string rulesets_;
  std::string forced_;
  bool any_rules_ = false;
  std::unique_ptr<RecordEngine> over_limit_;  // what get() answers past kMaxEngines
  std::mutex mu_;
  std::map<std::string, std::unique_ptr<RecordEngine>> cache_;
  std::map<std::string, std::string> named_;
  std::map<std::string, std::unique_ptr<std::vector<registry::RecordTagMap>>> tag_maps_;
};

// Validates games; one per thread. Keeps a clone of each engine it has used.
class Validator {
 public:
  // `strict`: warnings count as errors.
  explicit Validator(EngineCache& cache, bool strict = false) : cache_(cache), strict_(strict) {}
  // `dir` is the folder of the record's file (a relative [Rules] tag is read from there).
  void validate(const ParsedGame& g, const std::string& dir, GameReport& r);

 private:
  void check(const ParsedGame& g, const std::string& dir, GameReport& r);
  struct Slot {
    std::unique_ptr<Engine> engine;
    const RecordEngine* proto = nullptr;
  };
  EngineCache& cache_;
  bool strict_ = false;
  std::map<std::string, Slot> engines_;
  // Scratch reused from game to game.
  std::vector<Action> legal_;
  std::vector<StepBrief> briefs_;
  std::vector<ActionInfo> infos_;
};

// The report as one line of JSON (without newline) and as text lines for a terminal.
std::string report_json(const std::string& file, const GameReport& r);
// report_text: every finding (errors and warnings), one a line; first_error_text: the
// first error alone ("" for a valid game).
std::string report_text(const std::string& file, const GameReport& r);
std::string first_error_text(const std::string& file, const GameReport& r);

}  // namespace arb::records
