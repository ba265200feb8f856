// Running the built `arbiter` binary from a test: its path beside the test binary, shell
// quoting, and the captured outcome (exit status, standard output and error).
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

namespace testing_process {

// build/tests/X -> build/cli/arbiter
inline std::string arbiter_path() {
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe");
  return (self.parent_path().parent_path() / "cli" / "arbiter").string();
}

inline std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

struct Outcome {
  int code = -1;
  std::string out, err;
  std::vector<std::string> lines() const {
    std::vector<std::string> v;
    std::string cur;
    for (char c : out) {
      if (c == '\n') {
        v.push_back(cur);
        cur.clear();
      } else {
        cur.push_back(c);
      }
    }
    if (!cur.empty()) v.push_back(cur);
    return v;
  }
  std::string last_line() const {
    auto v = lines();
    return v.empty() ? "" : v.back();
  }
};

inline std::ostream& operator<<(std::ostream& os, const Outcome& r) {
  return os << "exit " << r.code << "\n--- stdout\n" << r.out << "--- stderr\n" << r.err;
}

// Runs `arbiter ARGS...` (from directory `cwd` when not empty), capturing everything.
inline Outcome run_arbiter(const std::vector<std::string>& args, const std::string& cwd = "") {
  static int counter = 0;
  std::filesystem::path err =
      std::filesystem::temp_directory_path() /
      ("arbiter-test-" + std::to_string(getpid()) + "-stderr-" + std::to_string(++counter));
  std::string cmd = cwd.empty() ? "" : "cd " + shell_quote(cwd) + " && ";
  cmd += shell_quote(arbiter_path());
  for (const auto& a : args) cmd += " " + shell_quote(a);
  cmd += " 2>" + shell_quote(err.string());
  Outcome r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(err, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  r.err = ss.str();
  in.close();
  std::filesystem::remove(err);
  return r;
}

}  // namespace testing_process
