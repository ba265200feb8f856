#include "registry/variants.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <optional>
#include <stdexcept>

#include "reference.hpp"

namespace arb::registry {

namespace fs = std::filesystem;

namespace {

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
  if (const char* env = std::getenv("ARBITER_RULESETS")) return env;
  fs::path src = fs::path(ARBITER_SOURCE_DIR) / "rulesets";
  std::error_code ec;
  if (fs::is_directory(src, ec)) return src;
  fs::path beside = self_dir() / "rulesets";
  if (fs::is_directory(beside, ec)) return beside;
  return src;
}

std::vector<Variant> bundled() {
  return bundled_in(rulesets_dir());
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
    v.records = m->records;
    // Names a ruleset inherits from its parent name the parent's game, not this one.
    if (v.records.names_of != m->name) v.records.names.clear();
    v.placement_p = v.records.piece_first;
    v.dice_start = m->setup_kind == lang::SetupKind::Chess960;
    out = v;
  }
  cache.emplace(ruleset.string(), out);
  return out;
}

std::optional<Variant> by_record_name(const std::string& tag, const fs::path& dir) {
  const std::string want = lower_trim(tag);
  for (Variant& v : bundled_in(dir.empty() ? rulesets_dir() : dir)) {
    if (want.empty() ? v.name == default_variant() : lower_trim(v.name) == want) return v;
    for (const std::string& n : v.records.names)
      if (lower_trim(n) == want) return v;
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

std::unique_ptr<Engine> make_reference(const std::string& variant,
                                       const std::map<std::string, std::string>& options) {
  return ref::make_reference_engine(variant, options);
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
