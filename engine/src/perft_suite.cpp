#include "arbiter/perft_suite.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace arb {

std::vector<PerftCase> read_perft_suite(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open the perft suite");
  std::vector<PerftCase> cases;
  std::string line;
  int n = 0;
  std::string pending_id;
  auto fail = [&](const std::string& msg) {
    throw std::runtime_error(path + ":" + std::to_string(n) + ": " + msg);
  };
  while (std::getline(in, line)) {
    ++n;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos || line[start] == '#') continue;
    std::istringstream ls(line.substr(start));
    std::string key;
    ls >> key;
    if (key == "id") {
      std::getline(ls >> std::ws, pending_id);
    } else if (key == "epd" || key == "fen") {
      PerftCase c;
      std::getline(ls >> std::ws, c.position);
      if (c.position.empty()) fail("`epd` needs a position");
      c.id = pending_id.empty() ? "line-" + std::to_string(n) : pending_id;
      c.line = n;
      pending_id.clear();
      cases.push_back(std::move(c));
    } else if (key == "perft") {
      if (cases.empty()) fail("`perft` before any `epd`");
      long long depth = -1;
      unsigned long long nodes = 0;
      if (!(ls >> depth >> nodes) || depth < 0) fail("expected `perft DEPTH NODES`");
      cases.back().expected.emplace_back(static_cast<int>(depth), nodes);
    } else {
      fail("unknown line `" + key + "` (expected id, epd or perft)");
    }
  }
  return cases;
}

}  // namespace arb
