#include "registry/variants.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
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

// What the rulesets cannot say about their own texts: the notation a variant's records use
// for placements. Chessembly writes `pKe1` (chessembly.md; RULINGS 1.10).
bool placement_p(const std::string& name) {
  return name == "chessembly";
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
  std::vector<Variant> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(rulesets_dir(), ec)) {
    if (e.path().extension() != ".rules") continue;
    Variant v;
    v.name = e.path().stem().string();
    v.ruleset = e.path();
    v.placement_p = placement_p(v.name);
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
