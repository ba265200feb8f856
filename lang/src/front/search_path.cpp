// The ruleset search path (search_path.hpp).
#include "arbiter/lang/search_path.hpp"

#include <algorithm>
#include <cstdlib>
#include <string_view>
#include <system_error>

namespace arb::lang {

namespace fs = std::filesystem;

namespace {

bool is_dir(const fs::path& p) {
  std::error_code ec;
  return !p.empty() && fs::is_directory(p, ec);
}

void add(std::vector<fs::path>& out, const fs::path& p) {
  if (!is_dir(p)) return;
  std::error_code ec;
  fs::path canon = fs::weakly_canonical(p, ec);
  if (ec) canon = p;
  if (std::find(out.begin(), out.end(), canon) == out.end()) out.push_back(canon);
}

fs::path self_dir() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe.parent_path();
}

}  // namespace

fs::path bundled_rulesets_dir() {
  return fs::path(ARBITER_BUNDLED_RULESETS);
}

std::vector<fs::path> ruleset_search_path() {
  std::vector<fs::path> out;
  if (const char* env = std::getenv("ARBITER_RULESETS")) {
    std::string_view list(env);
    while (!list.empty()) {
      size_t colon = list.find(':');
      std::string_view item = list.substr(0, colon);
      if (!item.empty()) add(out, fs::path(std::string(item)));
      if (colon == std::string_view::npos) break;
      list.remove_prefix(colon + 1);
    }
  }
  fs::path bin = self_dir();
  if (!bin.empty()) add(out, bin.parent_path() / "share" / "arbiter" / "rulesets");
  add(out, bundled_rulesets_dir());
  return out;
}

std::optional<fs::path> find_ruleset(const std::string& name, const fs::path& first,
                                     std::vector<fs::path>* looked) {
  if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..") return std::nullopt;
  std::vector<fs::path> dirs;
  if (!first.empty()) dirs.push_back(first);
  for (const fs::path& d : ruleset_search_path())
    if (std::find(dirs.begin(), dirs.end(), d) == dirs.end()) dirs.push_back(d);
  for (const fs::path& d : dirs) {
    if (looked) looked->push_back(d);
    fs::path p = d / (name + ".rules");
    std::error_code ec;
    if (fs::is_regular_file(p, ec)) return p;
  }
  return std::nullopt;
}

}  // namespace arb::lang
