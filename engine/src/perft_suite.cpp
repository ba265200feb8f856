#include "arbiter/perft_suite.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "arbiter/numbers.hpp"

namespace arb {

namespace {

// Splits on blanks.
std::vector<std::string> words(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string w;
  while (in >> w) out.push_back(w);
  return out;
}

std::string rest_after_key(const std::string& line, size_t start, size_t key_len) {
  size_t p = line.find_first_not_of(" \t", start + key_len);
  if (p == std::string::npos) return "";
  size_t e = line.find_last_not_of(" \t");
  return line.substr(p, e + 1 - p);
}

}  // namespace

std::vector<PerftCase> parse_perft_suite(std::istream& in, const std::string& name) {
  std::vector<PerftCase> cases;
  std::string line;
  int n = 0;
  std::string pending_id;
  auto fail = [&](const std::string& msg) {
    throw std::runtime_error(name + ":" + std::to_string(n) + ": " + msg);
  };
  while (std::getline(in, line)) {
    if (n == INT32_MAX) fail("too many lines");
    ++n;
    if (line.size() > kMaxSuiteLine)
      fail("line longer than " + std::to_string(kMaxSuiteLine) + " characters");
    if (!line.empty() && line.back() == '\r') line.pop_back();
    size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos || line[start] == '#') continue;
    size_t key_end = line.find_first_of(" \t", start);
    std::string key = line.substr(start, key_end == std::string::npos ? std::string::npos : key_end - start);
    if (key == "id") {
      pending_id = rest_after_key(line, start, key.size());
    } else if (key == "epd" || key == "fen") {
      PerftCase c;
      c.position = rest_after_key(line, start, key.size());
      if (c.position.empty()) fail("`" + key + "` needs a position");
      c.id = pending_id.empty() ? "line-" + std::to_string(n) : pending_id;
      c.line = n;
      pending_id.clear();
      cases.push_back(std::move(c));
    } else if (key == "perft") {
      if (cases.empty()) fail("`perft` before any `epd`");
      std::vector<std::string> w = words(line.substr(start));
      if (w.size() != 3) fail("expected `perft DEPTH NODES`");
      auto depth = parse_integer(w[1], 0, kMaxSuiteDepth);
      if (!depth) fail("perft depth `" + w[1] + "`: " + integer_problem(w[1], 0, kMaxSuiteDepth));
      auto nodes = parse_unsigned(w[2], 0, UINT64_MAX);
      if (!nodes) fail("perft node count `" + w[2] + "`: expected a number between 0 and 2^64-1");
      cases.back().expected.emplace_back(static_cast<int>(*depth), *nodes);
    } else {
      fail("unknown line `" + key.substr(0, 40) + "` (expected id, epd or perft)");
    }
  }
  return cases;
}

std::vector<PerftCase> read_perft_suite(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) throw std::runtime_error(path + ": cannot open the perft suite: no such file");
  if (!fs::is_regular_file(st)) throw std::runtime_error(path + ": the perft suite is not a regular file");
  uintmax_t size = fs::file_size(path, ec);
  if (ec) throw std::runtime_error(path + ": cannot open the perft suite");
  if (size > kMaxSuiteBytes) {
    // Named where the limit is crossed: the line and column of the first byte past it.
    std::ifstream in(path, std::ios::binary);
    uint64_t line = 1, col = 1;
    char ch;
    for (uint64_t i = 0; i < kMaxSuiteBytes && in.get(ch); ++i) {
      if (ch == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    throw std::runtime_error(path + ":" + std::to_string(line) + ":" + std::to_string(col) +
                             ": the perft suite passes the limit of " + std::to_string(kMaxSuiteBytes >> 20) +
                             " MiB here (" + std::to_string(size) + " bytes in all)");
  }
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open the perft suite");
  std::vector<PerftCase> cases = parse_perft_suite(in, path);
  if (in.bad()) throw std::runtime_error(path + ": read error");
  return cases;
}

}  // namespace arb
