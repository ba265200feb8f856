#include "common.hpp"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "arbiter/json.hpp"
#include "arbiter/notation.hpp"
#include "reference.hpp"

namespace arb::cli {

std::string json_escape(const std::string& s) {
  return arb::json_escape(s);
}

// Where the bundled rulesets are: beside the binary's source tree, or ARBITER_RULESETS.
fs::path rulesets_dir() {
  if (const char* env = std::getenv("ARBITER_RULESETS")) return env;
  return fs::path(ARBITER_SOURCE_DIR) / "rulesets";
}

void add_common(po::options_description& d, Common& c, bool with_seed) {
  d.add_options()("variant", po::value(&c.variant), "bundled variant NAME (rulesets/NAME.rules)")(
      "rules", po::value(&c.rules), "ruleset FILE")("set", po::value(&c.sets)->composing(),
                                                    "option override NAME=VALUE (repeatable)")(
      "position", po::value(&c.position), "position text (default: the variant's start)")(
      "fen", po::value(&c.position), "alias of --position")(
      "moves", po::value(&c.moves),
      "actions to play from the position first (SAN, UCI, K@e1 or pKe1; `1.` numbers skipped)")(
      "engine", po::value(&c.engine), "compiled (default) or reference")("json", po::bool_switch(&c.json),
                                                                         "machine-readable output");
  if (with_seed)
    d.add_options()("seed", po::value(&c.seed), "shuffle the start with this seed (ChessMe piles)");
}

bool print_help(const po::options_description& d, const std::vector<std::string>& args) {
  for (const auto& a : args)
    if (a == "--help" || a == "-h") {
      std::cout << d << "\nexit status: 0 success, 1 a check failed, 2 unusable input\n";
      return true;
    }
  return false;
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

Loaded load_engine(const Common& c) {
  Loaded l;
  arb::lang::Diagnostics diags;
  std::string path = rules_path(c);
  if (c.engine == "compiled") {
    l.compiled = arb::lang::compile_file(path, parse_sets(c.sets), diags);
    if (diags.has_errors()) {
      std::cerr << diags.render();
      std::cerr << path << ": " << diags.error_count() << " error(s)\n";
      return l;
    }
    l.variant = l.compiled.model->name;
    l.engine = arb::lang::make_compiled_engine(l.compiled.program);
  } else if (c.engine == "reference") {
    // The reference engine runs without compiling the ruleset: a bundled variant by its
    // name, a ruleset file by the name it declares (loaded and checked, not compiled).
    if (!c.variant.empty()) {
      l.variant = c.variant;
    } else {
      l.compiled.model = arb::lang::load_ruleset(path, {}, diags, l.compiled.sources);
      if (!l.compiled.model) {
        std::cerr << diags.render();
        std::cerr << path << ": " << diags.error_count() << " error(s)\n";
        return l;
      }
      l.variant = l.compiled.model->name;
    }
    try {
      l.engine = arb::ref::make_reference_engine(l.variant, parse_sets(c.sets));
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--set: ") + e.what());
    }
    if (!l.engine) throw UsageError("variant `" + l.variant + "` has no reference engine yet");
  } else {
    throw UsageError("--engine must be `compiled` or `reference`, not `" + c.engine + "`");
  }
  std::string position = c.position;
  if (!c.seed.empty()) {
    if (!position.empty()) throw UsageError("give --seed or --position, not both");
    position = "start:" + c.seed;
  }
  if (position.empty() && c.engine != "compiled") position = "start";
  if (!position.empty()) {
    try {
      l.engine->set_position(position);
    } catch (const arb::PositionError& e) {
      std::cerr << "error: bad position: " << e.what() << "\n  " << position << "\n  "
                << std::string(std::min(e.column, position.size()), ' ') << "^\n";
      l.engine.reset();
      return l;
    }
  }
  if (!c.moves.empty()) {
    std::istringstream in(c.moves);
    std::string tok;
    int n = 0;
    while (in >> tok) {
      if (!tok.empty() && std::isdigit(static_cast<unsigned char>(tok[0])) &&
          tok.find('.') != std::string::npos) {
        tok = tok.substr(tok.rfind('.') + 1);
        if (tok.empty()) continue;
      }
      ++n;
      auto a = arb::parse_action(*l.engine, tok);
      if (!a) {
        std::cerr << "error: --moves: action " << n << " `" << tok << "` is not legal in "
                  << l.engine->position() << "\n";
        l.engine.reset();
        return l;
      }
      l.engine->apply(*a);
    }
  }
  return l;
}

void write_atomically(const fs::path& path, const std::string& text) {
  if (!path.parent_path().empty()) fs::create_directories(path.parent_path());
  fs::path tmp = path;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
  }
  fs::rename(tmp, path);
}

std::string xml_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '<':
        o += "&lt;";
        break;
      case '>':
        o += "&gt;";
        break;
      case '&':
        o += "&amp;";
        break;
      case '"':
        o += "&quot;";
        break;
      case '\'':
        o += "&apos;";
        break;
      default:
        // XML 1.0 admits no control characters but tab, newline and carriage return.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r')
          o += '?';
        else
          o += c;
    }
  }
  return o;
}

std::string junit_xml(const std::string& suite, const std::vector<JUnitCase>& cases) {
  size_t failures = 0;
  double total = 0;
  for (const auto& c : cases) {
    failures += c.failed ? 1 : 0;
    total += c.seconds;
  }
  std::ostringstream o;
  o << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n<testsuite name=\"" << xml_escape(suite)
    << "\" tests=\"" << cases.size() << "\" failures=\"" << failures << "\" errors=\"0\" time=\"" << total
    << "\">\n";
  for (const auto& c : cases) {
    o << "  <testcase name=\"" << xml_escape(c.name) << "\" classname=\"" << xml_escape(c.classname)
      << "\" time=\"" << c.seconds << "\"";
    if (!c.failed && c.output.empty()) {
      o << "/>\n";
      continue;
    }
    o << ">\n";
    if (c.failed)
      o << "    <failure message=\"" << xml_escape(c.message) << "\">" << xml_escape(c.output)
        << "</failure>\n";
    else
      o << "    <system-out>" << xml_escape(c.output) << "</system-out>\n";
    o << "  </testcase>\n";
  }
  o << "</testsuite>\n</testsuites>\n";
  return o.str();
}

}  // namespace arb::cli
