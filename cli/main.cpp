// The `arbiter` command. Exit status: 0 success, 1 a check failed, 2 unusable input.
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <unistd.h>
#include <string>
#include <thread>
#include <vector>

#include "arbiter/lang/compile.hpp"
#include "arbiter/notation.hpp"
#include "arbiter/perft_suite.hpp"
#include "fuzz/fuzz.hpp"
#include "reference.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace {

constexpr int kOk = 0, kFailed = 1, kBadInput = 2;

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string json_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') {
      o += '\\';
      o += c;
    } else if (c == '\n') {
      o += "\\n";
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      o += buf;
    } else {
      o += c;
    }
  }
  return o;
}

// Where the bundled rulesets are: beside the binary's source tree, or ARBITER_RULESETS.
fs::path rulesets_dir() {
  if (const char* env = std::getenv("ARBITER_RULESETS")) return env;
  return fs::path(ARBITER_SOURCE_DIR) / "rulesets";
}

// Common options of every command.
struct Common {
  std::string variant, rules, position, engine = "compiled";
  std::vector<std::string> sets;
  std::string moves;
  bool json = false;
};

void add_common(po::options_description& d, Common& c) {
  d.add_options()("variant", po::value(&c.variant), "bundled variant NAME (rulesets/NAME.rules)")(
      "rules", po::value(&c.rules), "ruleset FILE")("set", po::value(&c.sets)->composing(),
                                                     "option override NAME=VALUE (repeatable)")(
      "position", po::value(&c.position), "position text (default: the variant's start)")(
      "fen", po::value(&c.position), "alias of --position")(
      "moves", po::value(&c.moves), "actions to play from the position first (SAN, UCI, K@e1 or pKe1; `1.` numbers skipped)")(
      "engine", po::value(&c.engine), "compiled (default) or reference")("json", po::bool_switch(&c.json),
                                                                          "machine-readable output");
}

std::map<std::string, std::string> parse_sets(const std::vector<std::string>& sets) {
  std::map<std::string, std::string> out;
  for (const auto& s : sets) {
    size_t eq = s.find('=');
    if (eq == std::string::npos || eq == 0) throw UsageError("--set expects NAME=VALUE, got `" + s + "`");
    out[s.substr(0, eq)] = s.substr(eq + 1);
  }
  return out;
}

std::string rules_path(const Common& c) {
  if (!c.rules.empty() && !c.variant.empty()) throw UsageError("give --variant or --rules, not both");
  if (!c.rules.empty()) return c.rules;
  std::string v = c.variant.empty() ? "chess" : c.variant;
  fs::path p = rulesets_dir() / (v + ".rules");
  if (!fs::exists(p)) {
    std::string known;
    if (fs::exists(rulesets_dir()))
      for (const auto& e : fs::directory_iterator(rulesets_dir()))
        if (e.path().extension() == ".rules") known += " " + e.path().stem().string();
    throw UsageError("unknown variant `" + v + "` (bundled:" + known + ")");
  }
  return p.string();
}

// Builds the engine the command runs; diagnostics go to stderr. Returns nullptr after
// reporting unusable input.
struct Loaded {
  arb::lang::Compiled compiled;
  std::unique_ptr<arb::Engine> engine;
  std::string variant;
};

Loaded load_engine(const Common& c) {
  Loaded l;
  arb::lang::Diagnostics diags;
  std::string path = rules_path(c);
  l.compiled = arb::lang::compile_file(path, parse_sets(c.sets), diags);
  if (diags.has_errors()) {
    std::cerr << diags.render();
    std::cerr << path << ": " << diags.error_count() << " error(s)\n";
    return l;
  }
  l.variant = l.compiled.model->name;
  if (c.engine == "compiled") {
    l.engine = arb::lang::make_compiled_engine(l.compiled.program);
  } else if (c.engine == "reference") {
    if (!c.sets.empty()) throw UsageError("--set applies to the compiled ruleset; the reference engine has no options");
    std::string base = l.variant;
    l.engine = arb::ref::make_reference_engine(base);
    if (!l.engine) throw UsageError("variant `" + base + "` has no reference engine yet");
  } else {
    throw UsageError("--engine must be `compiled` or `reference`, not `" + c.engine + "`");
  }
  if (!c.position.empty()) {
    try {
      l.engine->set_position(c.position);
    } catch (const arb::PositionError& e) {
      std::cerr << "error: bad position: " << e.what() << "\n  " << c.position << "\n  "
                << std::string(std::min(e.column, c.position.size()), ' ') << "^\n";
      l.engine.reset();
      return l;
    }
  }
  if (!c.moves.empty()) {
    std::istringstream in(c.moves);
    std::string tok;
    int n = 0;
    while (in >> tok) {
      if (!tok.empty() && std::isdigit(static_cast<unsigned char>(tok[0])) && tok.find('.') != std::string::npos) {
        tok = tok.substr(tok.rfind('.') + 1);
        if (tok.empty()) continue;
      }
      ++n;
      auto a = arb::parse_action(*l.engine, tok);
      if (!a) {
        std::cerr << "error: --moves: action " << n << " `" << tok << "` is not legal in " << l.engine->position()
                  << "\n";
        l.engine.reset();
        return l;
      }
      l.engine->apply(*a);
    }
  }
  return l;
}

int cmd_check(const std::vector<std::string>& args) {
  po::options_description d("arbiter check FILE.rules... [--set NAME=VALUE]");
  std::vector<std::string> files, sets;
  bool json = false;
  d.add_options()("file", po::value(&files), "ruleset files")("set", po::value(&sets)->composing(), "NAME=VALUE")(
      "json", po::bool_switch(&json), "machine-readable output");
  po::positional_options_description pos;
  pos.add("file", -1);
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(d).positional(pos).run(), vm);
  po::notify(vm);
  if (files.empty()) throw UsageError("arbiter check needs at least one FILE.rules");
  bool any_error = false, any_unusable = false;
  std::string json_out = "[";
  for (const auto& f : files) {
    arb::lang::Diagnostics diags;
    arb::lang::Compiled c = arb::lang::compile_file(f, parse_sets(sets), diags);
    bool parses = c.model != nullptr;
    bool executable = c.program != nullptr;
    if (!json) {
      std::cerr << diags.render();
      if (executable)
        std::cout << f << ": ok (" << c.model->title << ", executable by the compiled generator)\n";
      else if (parses)
        std::cout << f << ": checks, but not executable yet: " << diags.error_count() << " error(s)\n";
      else
        std::cout << f << ": " << diags.error_count() << " error(s)\n";
    } else {
      if (json_out.size() > 1) json_out += ",";
      json_out += "{\"file\":\"" + json_escape(f) + "\",\"checks\":" + (parses ? "true" : "false") +
                  ",\"executable\":" + (executable ? "true" : "false") + ",\"diagnostics\":[";
      bool first = true;
      for (const auto& dg : diags.all()) {
        if (!first) json_out += ",";
        first = false;
        json_out += "{\"line\":" + std::to_string(dg.loc.line) + ",\"column\":" + std::to_string(dg.loc.col) +
                    ",\"message\":\"" + json_escape(dg.message) + "\",\"hint\":\"" + json_escape(dg.hint) + "\"}";
      }
      json_out += "]}";
    }
    if (!parses) any_unusable = true;
    if (!executable) any_error = true;
  }
  if (json) std::cout << json_out << "]\n";
  return any_unusable ? kBadInput : any_error ? kFailed : kOk;
}

int cmd_moves(const std::vector<std::string>& args) {
  Common c;
  std::string notation = "san";
  po::options_description d("arbiter moves [--variant V | --rules F] [--position TEXT] [--notation san|uci]");
  add_common(d, c);
  d.add_options()("notation", po::value(&notation), "san (default) or uci");
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(d).run(), vm);
  po::notify(vm);
  if (notation != "san" && notation != "uci") throw UsageError("--notation must be san or uci");
  Loaded l = load_engine(c);
  if (!l.engine) return kBadInput;
  arb::Engine& e = *l.engine;
  std::vector<arb::Action> acts;
  e.legal_actions(acts);
  bool placement_p = l.variant == "chessembly";
  std::vector<std::string> texts;
  for (const auto& a : acts)
    texts.push_back(notation == "uci" ? arb::uci(e.describe(a), e.chess960()) : arb::san(e, a, placement_p));
  arb::Status st = e.status();
  if (c.json) {
    std::string o = "{\"position\":\"" + json_escape(e.position()) + "\",\"actions\":[";
    for (size_t i = 0; i < texts.size(); ++i) o += (i ? ",\"" : "\"") + json_escape(texts[i]) + "\"";
    o += "],\"count\":" + std::to_string(texts.size()) + ",\"result\":\"" + arb::to_string(st.result) +
         "\",\"reason\":\"" + st.reason + "\",\"in_check\":" + (st.in_check ? "true" : "false") +
         ",\"claim_threefold\":" + (st.claim_threefold ? "true" : "false") +
         ",\"claim_fifty\":" + (st.claim_fifty ? "true" : "false") + "}";
    std::cout << o << "\n";
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
  uint64_t checked = 0, skipped = 0, failed = 0, nodes = 0;
  auto t0 = std::chrono::steady_clock::now();
  bool tty = isatty(2);
  for (size_t i = 0; i < cases.size(); ++i) {
    const auto& pc = cases[i];
    try {
      l.engine->set_position(pc.position);
    } catch (const arb::PositionError& e) {
      std::cerr << path << ":" << pc.line << ": bad position: " << e.what() << "\n";
      ++failed;
      continue;
    }
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
        std::cerr << path << ":" << pc.line << ": " << pc.id << " perft " << depth << ": expected " << expected
                  << ", got " << got << "\n  " << pc.position << "\n";
      }
    }
    if (tty && (i % 25 == 0 || i + 1 == cases.size()))
      std::cerr << "\r" << (i + 1) << "/" << cases.size() << " positions, " << checked << " checks, " << failed
                << " failed" << std::flush;
  }
  if (tty) std::cerr << "\n";
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (json) {
    std::cout << "{\"suite\":\"" << json_escape(path) << "\",\"positions\":" << cases.size() << ",\"checked\":" << checked
              << ",\"skipped\":" << skipped << ",\"failed\":" << failed << ",\"nodes\":" << nodes
              << ",\"seconds\":" << secs << "}\n";
  } else {
    std::cout << "suite " << path << ": " << cases.size() << " positions, " << checked << " checks, " << skipped
              << " skipped over --max-nodes, " << failed << " failed\n";
    std::cout << "nodes " << nodes << "\n";
  }
  return failed ? kFailed : kOk;
}

int cmd_perft(const std::vector<std::string>& args) {
  Common c;
  int depth = -1;
  bool divide = false;
  std::string suite;
  uint64_t max_nodes = 0;
  po::options_description d("arbiter perft [--variant V | --rules F] [--position TEXT] --depth N [--divide] [--json]");
  add_common(d, c);
  d.add_options()("depth", po::value(&depth), "depth in plies (turns)")("divide", po::bool_switch(&divide),
                                                                        "one line per root action")(
      "suite", po::value(&suite), "run a .perft suite file")("max-nodes", po::value(&max_nodes),
                                                             "with --suite: skip checks expecting more nodes");
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(d).run(), vm);
  po::notify(vm);
  Loaded l = load_engine(c);
  if (!l.engine) return kBadInput;
  if (!suite.empty()) return run_suite(l, suite, max_nodes, c.json);
  if (depth < 0) throw UsageError("arbiter perft needs --depth N (or --suite FILE)");
  if (depth > 20) throw UsageError("--depth must be at most 20");
  arb::Engine& e = *l.engine;
  auto t0 = std::chrono::steady_clock::now();
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
  if (c.json) {
    std::cout << "{\"nodes\":" << total << ",\"depth\":" << depth << ",\"seconds\":" << secs
              << ",\"nodes_per_second\":" << static_cast<uint64_t>(secs > 0 ? total / secs : 0);
    if (divide) {
      std::cout << ",\"divide\":{";
      for (size_t i = 0; i < rows.size(); ++i)
        std::cout << (i ? "," : "") << "\"" << json_escape(rows[i].first) << "\":" << rows[i].second;
      std::cout << "}";
    }
    std::cout << "}\n";
    return kOk;
  }
  for (const auto& [t, n] : rows) std::cout << t << " " << n << "\n";
  std::cout << "nodes " << total << "\n";
  return kOk;
}

// Runs the expectations a ruleset states about itself.
int cmd_test(const std::vector<std::string>& args) {
  po::options_description d("arbiter test FILE.rules... [--json]");
  std::vector<std::string> files, sets;
  bool json = false;
  d.add_options()("file", po::value(&files), "ruleset files")("set", po::value(&sets)->composing(), "NAME=VALUE")(
      "json", po::bool_switch(&json), "machine-readable output");
  po::positional_options_description pos;
  pos.add("file", -1);
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(d).positional(pos).run(), vm);
  po::notify(vm);
  if (files.empty()) throw UsageError("arbiter test needs at least one FILE.rules");
  int passed = 0, failed = 0;
  bool unusable = false;
  std::string jrows;
  for (const auto& f : files) {
    arb::lang::Diagnostics diags;
    arb::lang::Compiled c = arb::lang::compile_file(f, parse_sets(sets), diags);
    if (!c.program) {
      std::cerr << diags.render();
      unusable = true;
      continue;
    }
    for (const auto& ex : c.program->expects) {
      auto e = arb::lang::make_compiled_engine(c.program);
      std::string got, want;
      bool ok = false;
      try {
        if (!ex.position.empty()) e->set_position(ex.position);
        if (ex.kind == "perft") {
          got = std::to_string(e->perft(ex.depth));
          want = std::to_string(ex.nodes);
        } else if (ex.kind == "status") {
          arb::Status st = e->status();
          got = st.reason.empty() ? "ongoing" : st.reason;
          want = ex.text;
        } else {
          bool legal = arb::parse_action(*e, ex.text).has_value();
          got = legal ? "legal" : "illegal";
          want = ex.kind;
        }
        ok = got == want;
      } catch (const arb::PositionError& pe) {
        got = std::string("bad position: ") + pe.what();
      }
      std::string where = ex.loc.src->path + ":" + std::to_string(ex.loc.line) + ":" + std::to_string(ex.loc.col);
      if (ok) {
        ++passed;
      } else {
        ++failed;
        std::cerr << where << ": expectation failed: " << ex.kind << " expected " << want << ", got " << got << "\n";
      }
      if (json)
        jrows += std::string(jrows.empty() ? "" : ",") + "{\"where\":\"" + json_escape(where) + "\",\"kind\":\"" +
                 ex.kind + "\",\"expected\":\"" + json_escape(want) + "\",\"got\":\"" + json_escape(got) +
                 "\",\"ok\":" + (ok ? "true" : "false") + "}";
    }
  }
  if (json)
    std::cout << "{\"passed\":" << passed << ",\"failed\":" << failed << ",\"results\":[" << jrows << "]}\n";
  else
    std::cout << passed << " passed, " << failed << " failed\n";
  if (unusable) return kBadInput;
  return failed ? kFailed : kOk;
}

// Writes `text` to `path` atomically (a temporary file renamed over it).
void write_atomically(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  fs::path tmp = path;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
  }
  fs::rename(tmp, path);
}

// Differential fuzzing of the compiled generator against the reference engine.
int cmd_fuzz(const std::vector<std::string>& args) {
  Common c;
  arb::fuzz::Options o;
  int jobs = 1;
  std::string save_dir = (fs::path(ARBITER_SOURCE_DIR) / "corpus" / "regressions").string();
  po::options_description d("arbiter fuzz --variant V [--seconds S | --games N] [--seed K] [--json]");
  add_common(d, c);
  d.add_options()("seconds", po::value(&o.seconds), "run for this long")("games", po::value(&o.games),
                                                                         "number of random games (default 100)")(
      "seed", po::value(&o.seed), "random seed (runs are deterministic for a seed)")(
      "max-plies", po::value(&o.max_plies), "longest game")("jobs", po::value(&jobs), "parallel jobs (1)")(
      "save-dir", po::value(&save_dir), "where divergences are saved");
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(d).run(), vm);
  po::notify(vm);
  if (c.engine != "compiled") throw UsageError("fuzz always compares the compiled generator with the reference engine");
  Loaded l = load_engine(c);
  if (!l.engine) return kBadInput;
  if (!arb::ref::make_reference_engine(l.variant))
    throw UsageError("variant `" + l.variant + "` has no reference engine to fuzz against");
  auto program = l.compiled.program;
  std::string variant = l.variant;
  arb::fuzz::EngineFactory left = [program] { return arb::lang::make_compiled_engine(program); };
  arb::fuzz::EngineFactory right = [variant] { return arb::ref::make_reference_engine(variant); };
  o.progress = !c.json && isatty(2);
  std::string start = l.engine->position();
  if (jobs < 1 || jobs > 64) throw UsageError("--jobs must be between 1 and 64");
  // Each job plays its own share of games with its own seed (seed + job): deterministic for
  // a given seed and job count. The first divergence by job order is reported.
  std::vector<arb::fuzz::Report> reports(static_cast<size_t>(jobs));
  {
    std::vector<std::thread> threads;
    for (int j = 0; j < jobs; ++j) {
      arb::fuzz::Options oj = o;
      oj.seed = o.seed + static_cast<uint64_t>(j);
      oj.games = o.games / jobs + (static_cast<uint64_t>(j) < o.games % jobs ? 1 : 0);
      oj.progress = o.progress && j == 0;
      threads.emplace_back([&, oj, j] { reports[j] = arb::fuzz::run(left, right, start, oj); });
    }
    for (auto& t : threads) t.join();
  }
  arb::fuzz::Report r;
  for (const auto& rj : reports) {
    r.games += rj.games;
    r.positions += rj.positions;
    r.seconds = std::max(r.seconds, rj.seconds);
    if (!r.divergence && rj.divergence) r.divergence = rj.divergence;
  }
  uint64_t rate = static_cast<uint64_t>(r.seconds > 0 ? r.positions / r.seconds : 0);
  std::string saved;
  if (r.divergence) {
    const auto& dv = *r.divergence;
    std::string body = "variant: " + variant + "\nposition: " + dv.position + "\naction: " + dv.action + "\nwhat: " + dv.what +
                       "\ncompiled: " + dv.left + "\nreference: " + dv.right + "\ndiff: " + dv.diff + "\nseed: " +
                       std::to_string(o.seed) + "\n";
    std::string name = variant + "-" + std::to_string(std::hash<std::string>{}(dv.position) % 1000000007) + ".txt";
    try {
      write_atomically(fs::path(save_dir) / name, body);
      saved = (fs::path(save_dir) / name).string();
    } catch (const std::exception& e) {
      std::cerr << "warning: could not save the divergence: " << e.what() << "\n";
    }
  }
  if (c.json) {
    std::cout << "{\"variant\":\"" << variant << "\",\"seed\":" << o.seed << ",\"games\":" << r.games
              << ",\"positions\":" << r.positions << ",\"seconds\":" << r.seconds << ",\"positions_per_second\":" << rate
              << ",\"divergence\":" << (r.divergence ? arb::fuzz::to_json(*r.divergence) : "null")
              << ",\"saved\":\"" << json_escape(saved) << "\"}\n";
  } else {
    std::cout << "fuzz " << variant << ": " << r.games << " games, " << r.positions << " positions compared in "
              << r.seconds << " s (" << rate << "/s)\n";
    if (r.divergence) {
      const auto& dv = *r.divergence;
      std::cout << "DIVERGENCE (" << dv.what << ") at ply " << dv.plies << ", shrunk:\n  position: " << dv.position
                << (dv.action.empty() ? "" : "\n  after:    " + dv.action) << "\n  compiled:  " << dv.left << "\n  reference: " << dv.right << "\n";
      if (!dv.diff.empty()) std::cout << "  difference (+ compiled only, - reference only): " << dv.diff << "\n";
      if (!saved.empty()) std::cout << "  saved: " << saved << "\n";
    } else {
      std::cout << "no divergence\n";
    }
  }
  return r.divergence ? kFailed : kOk;
}

void usage() {
  std::cout << "usage: arbiter COMMAND [options]\n\n"
               "commands:\n"
               "  check FILE.rules...   lint rulesets: every error with file:line:col\n"
               "  moves                 legal actions and status of a position\n"
               "  perft                 count leaf nodes (--depth N, --divide, --suite FILE)\n"
               "  test FILE.rules...    run the expectations a ruleset states about itself\n"
               "  fuzz                  compare the compiled generator with the reference engine\n\n"
               "common options: --variant NAME | --rules FILE, --set NAME=VALUE, --position TEXT (--fen),\n"
               "                --engine compiled|reference, --json\n"
               "exit status: 0 success, 1 a check failed, 2 unusable input\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h" || std::string(argv[1]) == "help") {
    usage();
    return argc < 2 ? kBadInput : kOk;
  }
  std::string cmd = argv[1];
  std::vector<std::string> args(argv + 2, argv + argc);
  try {
    if (cmd == "check") return cmd_check(args);
    if (cmd == "moves") return cmd_moves(args);
    if (cmd == "perft") return cmd_perft(args);
    if (cmd == "test") return cmd_test(args);
    if (cmd == "fuzz") return cmd_fuzz(args);
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
