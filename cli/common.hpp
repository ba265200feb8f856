// Shared pieces of the arbiter command: options every command takes, loading the engine,
// exit codes, JSON escaping and atomic output.
#pragma once

#include <boost/program_options.hpp>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "arbiter/json.hpp"
#include "arbiter/lang/compile.hpp"
#include "arbiter/progress.hpp"
#include "arbiter/wording.hpp"
#include "registry/engines.hpp"

namespace arb::cli {

namespace po = boost::program_options;
namespace fs = std::filesystem;
using arb::plural;

constexpr int kOk = 0, kFailed = 1, kBadInput = 2;
// `solve`, `proofgame`, `puzzles`: a budget or the timeout ended the search first.
constexpr int kUnknown = 3;

// Unusable input found while reading the command line: exit 2 with the message.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Text for a terminal: control characters (C0 but newline and tab, DEL, C1) and bytes that
// are not UTF-8 written as `\xNN` (`\r` too unless `keep_cr`), so that a tag, a move or a
// file name read from input never sends an escape sequence to the terminal.
std::string terminal_text(std::string_view s, bool keep_cr = false);

// Installs terminal_text on std::cout (and, keeping `\r` for progress lines, std::cerr)
// for the life of the object: every text report of every command goes through it.
class TerminalGuard {
 public:
  TerminalGuard();
  ~TerminalGuard();
  TerminalGuard(const TerminalGuard&) = delete;
  TerminalGuard& operator=(const TerminalGuard&) = delete;

 private:
  struct Buffers;
  std::unique_ptr<Buffers> b_;
};
fs::path rulesets_dir();

// Options every command takes.
struct Common {
  std::string variant, rules, position, engine = "compiled";
  std::vector<std::string> sets;
  std::string moves;
  // --engine fairy-stockfish (and fuzz --against fairy-stockfish): the UCI_Variant and an
  // optional VariantPath ini file.
  std::string fsf_variant, fsf_variant_path;
  std::string fsf_engine;  // --fsf-engine PATH|wasm:DIR (fsf::engine_command)
  std::string seed;        // ChessMe, No Stress Chess: `start:SEED`; Chess 2: the dice procedure's start
  bool json = false;
  // Whether the option was given at all (`--rules ""` is an error, not the default).
  bool rules_given = false, variant_given = false, position_given = false, seed_given = false;
  void given(const po::variables_map& vm, bool with_seed = true) {
    rules_given = vm.count("rules") > 0;
    variant_given = vm.count("variant") > 0;
    position_given = vm.count("position") > 0 || vm.count("fen") > 0;
    seed_given = with_seed && vm.count("seed") > 0;
    // An empty name is an error, not "not given" (issue 29).
    for (const char* o : {"fsf-variant", "fsf-variant-path", "fsf-engine"})
      if (vm.count(o) && vm[o].as<std::string>().empty())
        throw UsageError(std::string("--") + o + " needs a value");
  }
};
// `with_seed`: whether --seed means the start shuffle (fuzz and diff use --seed for themselves).
void add_common(po::options_description& d, Common& c, bool with_seed = true);
std::map<std::string, std::string> parse_sets(const std::vector<std::string>& sets);
std::string rules_path(const Common& c);

// arb::lang::compile_file behind a safety net: an exception escaping the checker (a bug;
// see the hardening report) becomes an error diagnostic naming the file, never a crash.
arb::lang::Compiled compile_ruleset(const std::string& path,
                                    const std::map<std::string, std::string>& overrides,
                                    arb::lang::Diagnostics& diags);

// The engine a command runs: nullptr after unusable input was reported on stderr.
// registry::open_engine does the work: this maps the options to its spec and reports.
struct Loaded {
  arb::lang::Compiled compiled;
  std::unique_ptr<arb::Engine> engine;
  std::function<std::unique_ptr<arb::Engine>()> make;  // more engines of the same game, at its start
  std::string variant;
};
Loaded load_engine(const Common& c);
// Whether every win of the compiled ruleset is a checkmate (its `end` block: checkmate the
// only loss, no region, no royal capture, no cards): then a mate must give check, and the
// stipulation search looks for the last move of a mate among the checks only.
bool wins_are_checkmates(const Loaded& l);
// The engine spec the options name (UsageError for unusable options).
arb::registry::EngineSpec engine_spec(const Common& c);

// Fairy-Stockfish playing --fsf-variant (checker/fsf/): a missing engine or a variant it
// refuses is a UsageError (exit 2) that says how to install it.
std::unique_ptr<arb::Engine> make_fairy_stockfish(const Common& c);

// Prints the command's options and returns true when `args` asks for --help or -h.
bool print_help(const po::options_description& d, const std::vector<std::string>& args,
                const char* more_exit = "");

// Writes `text` to `path` atomically: a temporary file with a unique name (mkstemp) in the
// target directory, then renamed over `path`. Refuses a directory.
void write_atomically(const fs::path& path, const std::string& text);

// An exclusive advisory lock (flock) on `path` (a folder or a file that exists), held until
// destroyed: concurrent runs that read, merge and write one output take it around that.
// Throws std::runtime_error when it cannot be opened.
class FileLock {
 public:
  explicit FileLock(const fs::path& path);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_ = -1;
};
// What an output's writers lock: its folder (no lock file is left behind; the rename that
// writes the output happens inside that folder).
fs::path lock_path(const fs::path& output);

// Parses the command line: every argument must be an option of `d`, except that positional
// arguments go to the option named by `positional` when given. Throws UsageError naming
// any other argument (a stray word is never ignored).
po::variables_map parse_command_line(const std::vector<std::string>& args, const po::options_description& d,
                                     const char* positional = nullptr);

// Numeric option values, range-checked: UsageError `--NAME: ...` otherwise.
int64_t int_option(const char* name, const std::string& text, int64_t lo, int64_t hi);
uint64_t uint_option(const char* name, const std::string& text, uint64_t lo, uint64_t hi);
// Seconds: a finite decimal number in [lo, hi].
double seconds_option(const char* name, const std::string& text, double lo, double hi);

// The largest input file read (rulesets are far smaller; see lang/syntax.hpp).
// check_input_file throws UsageError unless `path` is a readable regular file of at most
// `max_bytes` (so that /dev/zero, a FIFO or a directory is refused before it is read).
void check_input_file(const std::string& path, const std::string& what, uintmax_t max_bytes);
// Throws UsageError when `path` (an output of `option`) is empty, is a directory, or is
// one of `inputs` (an output never overwrites an input).
// Also refused: anything there but a regular file (a directory, FIFO, device or symbolic
// link), and a path whose folder is a file.
void check_output_path(const std::string& path, const std::vector<std::string>& inputs, const char* option);
// The files the options of `c` read (the ruleset, bundled or given, and a variants.ini):
// the inputs an output must not overwrite.
std::vector<std::string> input_files(const Common& c);

// --timeout: after `seconds` (0: never) prints `arbiter CMD: --timeout ...` on stderr and
// exits with status 1 (the run did not complete), from any computation. disarm() (or the
// destructor) before writing outputs, so that no partial file is ever left.
// Installs the signal handling of every command: SIGINT, SIGTERM and SIGHUP remove the
// registered temporary directories (arbiter/cleanup.hpp), then end the process (128 + the
// signal). Called first in main, before any thread starts.
void handle_signals();

class Watchdog {
 public:
  Watchdog(double seconds, std::string cmd);
  ~Watchdog();
  void disarm();

 private:
  struct State;
  std::shared_ptr<State> state_;
};
constexpr double kMaxTimeout = 1e7;  // seconds (about 115 days)
constexpr const char* kTimeoutHelp = "stop with exit 1 after this many seconds (0: no limit)";

// JUnit XML, the test-result format CI servers display: one <testsuite> of cases.
struct JUnitCase {
  std::string name, classname;
  double seconds = 0;
  bool failed = false;
  std::string message;  // one line: why it failed
  std::string output;   // details: the failure's body, or <system-out> of a pass
};
std::string xml_escape(const std::string& s);
std::string junit_xml(const std::string& suite, const std::vector<JUnitCase>& cases);

int cmd_fuzz(const std::vector<std::string>& args);
int cmd_export(const std::vector<std::string>& args);
int cmd_diff(const std::vector<std::string>& args);
int cmd_synth(const std::vector<std::string>& args);
int cmd_diagram(const std::vector<std::string>& args);
int cmd_validate(const std::vector<std::string>& args);
int cmd_mutate(const std::vector<std::string>& args);
int cmd_solve(const std::vector<std::string>& args);
int cmd_proofgame(const std::vector<std::string>& args);
int cmd_puzzles(const std::vector<std::string>& args);

}  // namespace arb::cli
