// Shared pieces of the arbiter command: options every command takes, loading the engine,
// exit codes, JSON escaping and atomic output.
#pragma once

#include <boost/program_options.hpp>
#include <filesystem>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "arbiter/lang/compile.hpp"

namespace arb::cli {

namespace po = boost::program_options;
namespace fs = std::filesystem;

constexpr int kOk = 0, kFailed = 1, kBadInput = 2;

// Unusable input found while reading the command line: exit 2 with the message.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string json_escape(const std::string& s);
fs::path rulesets_dir();

// Options every command takes.
struct Common {
  std::string variant, rules, position, engine = "compiled";
  std::vector<std::string> sets;
  std::string moves;
  std::string seed;  // ChessMe: the start shuffled with this seed (`start:SEED`)
  bool json = false;
};
// `with_seed`: whether --seed means the start shuffle (fuzz and diff use --seed for themselves).
void add_common(po::options_description& d, Common& c, bool with_seed = true);
std::map<std::string, std::string> parse_sets(const std::vector<std::string>& sets);
std::string rules_path(const Common& c);

// The engine a command runs: nullptr after unusable input was reported on stderr.
struct Loaded {
  arb::lang::Compiled compiled;
  std::unique_ptr<arb::Engine> engine;
  std::string variant;
};
Loaded load_engine(const Common& c);

// Prints the command's options and returns true when `args` asks for --help or -h.
bool print_help(const po::options_description& d, const std::vector<std::string>& args);

// Writes `text` to `path` atomically (a temporary file renamed over it).
void write_atomically(const fs::path& path, const std::string& text);

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
int cmd_diff(const std::vector<std::string>& args);

}  // namespace arb::cli
