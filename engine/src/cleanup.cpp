#include "arbiter/cleanup.hpp"

#include <filesystem>
#include <mutex>
#include <set>

namespace arb {

namespace {

std::mutex& mu() {
  static std::mutex m;
  return m;
}
std::set<std::string>& dirs() {
  static std::set<std::string> d;
  return d;
}

}  // namespace

void register_temp_dir(const std::string& path) {
  std::lock_guard<std::mutex> lock(mu());
  dirs().insert(path);
}

void unregister_temp_dir(const std::string& path) {
  std::lock_guard<std::mutex> lock(mu());
  dirs().erase(path);
}

void remove_temp_dirs() {
  std::lock_guard<std::mutex> lock(mu());
  for (const auto& d : dirs()) {
    // Again while it stands: a worker may write a file into it between the listing and
    // the rmdir of one pass.
    std::error_code ec;
    for (int pass = 0; pass < 10 && std::filesystem::exists(d, ec); ++pass)
      std::filesystem::remove_all(d, ec);
  }
  dirs().clear();
}

}  // namespace arb
