#include "registry/variants.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <optional>
#include <stdexcept>

#include "arbiter/lang/search_path.hpp"
#include "arbiter/nostress_text.hpp"
#include "reference.hpp"

namespace arb::registry {

namespace fs = std::filesystem;

namespace {

// The consumers' copy of what a `records` block states (catalogue.hpp).
RecordFacts record_facts(const lang::RecordFacts& f) {
  RecordFacts r;
  r.names = f.names;
  r.piece_first = f.piece_first;
  r.agreement_draws = f.agreement_draws;
  for (const lang::RecordTagMap& t : f.tags) r.tags.push_back({t.tag, t.target, t.values});
  return r;
}

fs::path self_dir() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe.parent_path();
}

std::string lower_trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
  std::string o = a == std::string::npos ? "" : s.substr(a, b - a + 1);
  for (char& c : o) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return o;
}

}  // namespace

fs::path rulesets_dir() {
  // The first folder of the search path that holds bundled rulesets (chess.rules is the
  // base every bundled game extends), else rulesets/ beside the running binary (a fuzzing
  // service's runner), else the source tree's folder.
  std::error_code ec;
  for (const fs::path& d : lang::ruleset_search_path())
    if (fs::is_regular_file(d / "chess.rules", ec)) return d;
  fs::path beside = self_dir() / "rulesets";
  if (fs::is_directory(beside, ec)) return beside;
  return lang::bundled_rulesets_dir();
}

std::vector<fs::path> ruleset_search_path() {
  return lang::ruleset_search_path();
}

int chess960_dice_start(uint64_t seed) {
  return lang::chess960_dice_start(seed);
}

std::vector<Variant> bundled() {
  // Every ruleset along the search path ($ARBITER_RULESETS first, then the installed and the
  // bundled ones): a name found twice is the first one's.
  std::vector<Variant> out;
  std::vector<fs::path> dirs = lang::ruleset_search_path();
  fs::path base = rulesets_dir();
  if (std::find(dirs.begin(), dirs.end(), base) == dirs.end()) dirs.push_back(base);
  for (const fs::path& dir : dirs)
    for (Variant& v : bundled_in(dir))
      if (std::none_of(out.begin(), out.end(), [&](const Variant& o) { return o.name == v.name; }))
        out.push_back(std::move(v));
  std::sort(out.begin(), out.end(), [](const Variant& a, const Variant& b) { return a.name < b.name; });
  return out;
}

std::vector<Variant> bundled_in(const fs::path& dir) {
  std::vector<Variant> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.path().extension() != ".rules") continue;
    Variant v;
    v.name = e.path().stem().string();
    v.ruleset = e.path();
    if (auto f = facts_of(v.ruleset)) {
      v.placement_p = f->placement_p;
      v.dice_start = f->dice_start;
      v.records = f->records;
    }
    try {
      v.reference = ref::make_reference_engine(v.name) != nullptr;
    } catch (const std::exception&) {
      v.reference = true;  // it exists; the default options were refused
    }
    out.push_back(v);
  }
  std::sort(out.begin(), out.end(), [](const Variant& a, const Variant& b) { return a.name < b.name; });
  return out;
}

std::string default_variant() {
  return kStandard;
}

std::optional<Variant> facts_of(const fs::path& ruleset) {
  static std::mutex mu;
  static std::map<std::string, std::optional<Variant>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(ruleset.string());
  if (it != cache.end()) return it->second;
  std::optional<Variant> out;
  lang::Diagnostics diags;
  std::vector<std::unique_ptr<lang::Source>> sources;
  std::unique_ptr<lang::Model> m;
  try {
    m = lang::load_ruleset(ruleset.string(), {}, diags, sources);
  } catch (const std::exception&) {
    m.reset();
  }
  if (m) {
    Variant v;
    v.name = m->name;
    v.ruleset = ruleset;
    v.records = record_facts(m->records);
    // Names a ruleset inherits from its parent name the parent's game, not this one.
    if (m->records.names_of != m->name) v.records.names.clear();
    v.placement_p = v.records.piece_first;
    v.dice_start = m->setup_kind == lang::SetupKind::Chess960;
    out = v;
  }
  cache.emplace(ruleset.string(), out);
  return out;
}

namespace {
// A variant name as servers spell it, reduced to what they agree on: "King of the Hill",
// "kingofthehill" and "King-of-the-hill" are one name.
std::string squeeze(const std::string& s) {
  std::string o;
  for (char c : lower_trim(s))
    if (c != ' ' && c != '-' && c != '_') o += c;
  return o;
}
}  // namespace

std::optional<Variant> by_record_name(const std::string& tag, const fs::path& dir) {
  const fs::path base = dir.empty() ? rulesets_dir() : dir;
  const std::string want = lower_trim(tag);
  // The bundled rulesets first, then the Fairy-Stockfish catalogue beside them (fsf/,
  // its rulesets named as Fairy-Stockfish's UCI_Variant); each by its exact name, then by
  // the squeezed one (lichess, chess.com and pychess write "King of the Hill", "Three-check").
  std::vector<Variant> all = bundled_in(base);
  if (!want.empty()) {
    std::error_code ec;
    if (fs::is_directory(base / "fsf", ec))
      for (Variant& v : bundled_in(base / "fsf")) all.push_back(std::move(v));
  }
  for (int pass = 0; pass < 2; ++pass) {
    auto norm = [&](const std::string& s) { return pass == 0 ? lower_trim(s) : squeeze(s); };
    const std::string w = norm(tag);
    for (Variant& v : all) {
      if (want.empty() ? v.name == default_variant() : norm(v.name) == w) return v;
      for (const std::string& n : v.records.names)
        if (norm(n) == w) return v;
    }
    if (want.empty()) break;
  }
  return std::nullopt;
}

std::optional<Variant> find(const std::string& name) {
  for (Variant& v : bundled())
    if (v.name == name) return v;
  return std::nullopt;
}

std::string names() {
  std::string s;
  for (const Variant& v : bundled()) s += (s.empty() ? "" : " ") + v.name;
  return s;
}

std::optional<int> reference_dice_start(const std::string& variant, uint64_t seed) {
  if (variant == "chess2") return ref::chess2_dice_start(seed);
  return std::nullopt;
}

std::unique_ptr<Engine> make_reference(const std::string& variant,
                                       const std::map<std::string, std::string>& options) {
  return ref::make_reference_engine(variant, options);
}

namespace {
// The card game whose reference engine reads any deck and hand (checker/reference/nostress).
constexpr const char* kCardReference = "nostress";
}  // namespace

std::optional<ReferenceOf> reference_of(const lang::Compiled& c,
                                        const std::map<std::string, std::string>& options) {
  if (!c.model) return std::nullopt;
  const std::string& own = c.model->name;
  try {
    if (ref::make_reference_engine(own)) return ReferenceOf{own, options};
  } catch (const std::exception&) {
    return ReferenceOf{own, options};  // it exists; these options are its to refuse
  }
  // A grid ruleset extending one with a reference (a designer's ChessMe): that reference,
  // told the hands and piles the ruleset states.
  if (c.model->unbounded) {
    const std::string rv = reference_variant(*c.model);
    if (rv.empty()) return std::nullopt;
    ReferenceOf r{rv, options};
    for (const auto& [k, v] : reference_options(*c.model)) r.options.emplace(k, v);
    return r;
  }
  const auto& line = c.model->lineage;
  if (!c.program || !c.program->cards || std::find(line.begin(), line.end(), kCardReference) == line.end())
    return std::nullopt;
  const lang::CardProgram& cards = *c.program->cards;
  ReferenceOf r{kCardReference, {}};
  // The options the reference knows, as compiled (defaults and --set).
  for (const auto& [k, v] : c.program->options)
    if (k == "seed" || k == "setup-advanced-pawns") r.options[k] = v;
  r.options["level"] = cards.level;
  const auto level = parse_nostress_level(cards.level);
  if (cards.rules.deck != kNoStressDeckCounts) {
    std::string deck;
    for (size_t k = 0; k < kNoStressCardKinds.size(); ++k)
      if (cards.rules.deck[k] > 0) deck += kNoStressCardKinds[k] + std::to_string(cards.rules.deck[k]);
    r.options["deck"] = deck;
  }
  if (!level || cards.rules.hand_size != nostress_hand_size(*level))
    r.options["hand-size"] = std::to_string(cards.rules.hand_size);
  return r;
}

std::unique_ptr<Engine> make_reference(const lang::Compiled& c,
                                       const std::map<std::string, std::string>& options) {
  auto r = reference_of(c, options);
  return r ? make_reference(r->variant, r->options) : nullptr;
}

std::string reference_variant(const lang::Model& model) {
  std::vector<std::string> names = {model.name};
  // Only a grid ruleset follows its lineage: the ChessMe reference takes the hands and piles
  // a child may change (reference_options). A bounded child (atomic chess extends chess) is
  // another game that no reference plays.
  // `extends` names a ruleset by its path without `.rules`: the variant is the file's stem.
  if (model.unbounded)
    for (const std::string& parent : model.lineage) names.push_back(fs::path(parent).filename().string());
  for (const std::string& n : names) {
    try {
      if (ref::make_reference_engine(n) != nullptr) return n;
    } catch (const std::exception&) {
      return n;  // it exists; the default options were refused
    }
  }
  return "";
}

std::map<std::string, std::string> reference_options(const lang::Model& model) {
  std::map<std::string, std::string> out;
  if (!model.unbounded) return out;
  const TileRules chessme;
  if (model.pile != chessme.tiles) out["tiles"] = model.pile;
  if (model.hand_size != chessme.hand_size) out["hand-size"] = std::to_string(model.hand_size);
  if (model.hand_draw != chessme.draw) out["draw"] = std::to_string(model.hand_draw);
  return out;
}

lang::Compiled compile(const std::string& path, const std::map<std::string, std::string>& options,
                       lang::Diagnostics& diags) {
  try {
    return lang::compile_file(path, options, diags);
  } catch (const std::exception& e) {
    diags.error(lang::Loc{}, path + ": internal error while checking the ruleset (" + e.what() + ")");
    return {};
  }
}

}  // namespace arb::registry
