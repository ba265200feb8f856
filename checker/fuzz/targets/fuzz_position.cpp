// libFuzzer target: the position texts of every ruleset, catalogue ones included (FEN
// with pockets `[..]`, walls `*`, promoted marks `+P` and `Q~`, No Stress Chess's card
// fields). Input: the first line names a ruleset (NAME: rulesets/NAME.rules, else
// rulesets/fsf/NAME.rules; letters, digits, `-` and `_` only), the rest is a position
// text. The ruleset's compiled engine (built once per name, then kept) must accept the
// text or throw PositionError, and read back every text it prints, also after each of
// its first legal actions. The No Stress text reader (parse_nostress) must accept or
// throw PositionError with a column inside the text, and format what it accepts
// canonically and stably.
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "arbiter/nostress_text.hpp"
#include "fuzz_common.hpp"

namespace {

using namespace arb;

struct Engines {
  std::unique_ptr<Engine> e, probe;  // null: the name names no ruleset that compiles
};
std::map<std::string, Engines>* cache = nullptr;

Engines* engines_of(const std::string& name) {
  if (name.empty() || name.size() > 40) return nullptr;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') return nullptr;
  auto it = cache->find(name);
  if (it == cache->end()) {
    Engines made;
    bool found = false;
    const std::filesystem::path dir = fuzz_targets::rulesets_dir();
    for (const auto& p : {dir / (name + ".rules"), dir / "fsf" / (name + ".rules")}) {
      std::error_code ec;
      if (!std::filesystem::is_regular_file(p, ec)) continue;
      found = true;
      registry::EngineSpec spec;
      spec.rules = p;
      lang::Diagnostics diags;
      try {
        made.e = registry::open_engine(spec, diags).engine;
        if (made.e) made.probe = registry::open_engine(spec, diags).engine;
      } catch (const std::exception&) {
        made.e.reset();
      }
      break;
    }
    if (!found) return nullptr;  // not cached: the names tried are not bounded, the rulesets are
    it = cache->emplace(name, std::move(made)).first;
  }
  return it->second.e && it->second.probe ? &it->second : nullptr;
}

void nostress_round_trip(const std::string& text) {
  NoStressPosition p;
  try {
    p = parse_nostress(text);
  } catch (const PositionError& e) {
    if (e.column > text.size()) fuzz_targets::finding("PositionError column past the text");
    return;
  }
  const std::string out = format_nostress(p);
  try {
    if (format_nostress(parse_nostress(out)) != out)
      fuzz_targets::finding("format_nostress is not stable on `" + out + "`");
  } catch (const PositionError& e) {
    fuzz_targets::finding("parse_nostress refuses format_nostress's `" + out + "`: " + e.what());
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  cache = new std::map<std::string, Engines>;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;
  const std::string input(reinterpret_cast<const char*>(data), size);
  const size_t nl = input.find('\n');
  if (nl == std::string::npos) return 0;
  const std::string name = input.substr(0, nl), text = input.substr(nl + 1);
  nostress_round_trip(text);
  Engines* en = engines_of(name);
  if (!en) return 0;
  if (!fuzz_targets::load_and_read_back(*en->e, *en->probe, text)) return 0;
  std::vector<Action> acts;
  en->e->legal_actions(acts);
  for (size_t i = 0; i < acts.size() && i < 4; ++i) {  // the positions a few actions reach
    en->e->apply(acts[i]);
    const std::string after = en->e->position();
    try {
      en->probe->set_position(after);
    } catch (const PositionError& err) {
      fuzz_targets::finding(en->e->name() + " refuses the text it printed after an action: `" + after +
                            "` (" + err.what() + "), from `" + text + "`");
    }
    en->e->undo();
  }
  return 0;
}
