// Markdown summaries with text diagrams (summary.hpp).
#include "summary.hpp"

#include <map>
#include <sstream>

#include "arbiter/notation.hpp"
#include "arbiter/synth/diagram.hpp"

namespace arb::cli {

std::string text_diagram(const std::string& position, const std::map<char, std::string>& names) {
  arb::synth::Diagram d;
  try {
    d = arb::synth::parse_diagram(position);
  } catch (const std::exception&) {
    return position + "\n";
  }
  std::vector<int> files = d.files, ranks = d.ranks;
  if (!d.grid || files.empty()) {
    files.clear();
    ranks.clear();
    for (int x = d.x0; x < d.x0 + d.w; ++x) files.push_back(x);
    for (int y = d.y0; y < d.y0 + d.h; ++y) ranks.push_back(y);
  }
  std::map<std::pair<int, int>, char> at;
  for (const auto& [c, p] : d.pieces) at[{c.x, c.y}] = p;
  std::ostringstream o;
  for (size_t ri = ranks.size(); ri-- > 0;) {
    std::string label = std::to_string(ranks[ri]);
    o << std::string(label.size() < 4 ? 4 - label.size() : 0, ' ') << label << " ";
    for (int x : files) {
      auto it = at.find({x, ranks[ri]});
      o << ' ' << (it == at.end() ? '.' : it->second);
    }
    o << "\n";
  }
  o << "     ";
  for (int x : files) {
    const std::string n = square_name(Coord{x, 1});
    o << ' ' << (n.size() == 2 ? n[0] : '?');
  }
  o << "\n" << (d.side == Color::White ? "White" : "Black") << " to move\n";
  for (const auto& [k, v] : d.notes) o << k << ": " << v << "\n";
  d.names = names;
  const std::vector<std::string> legend = arb::synth::legend(d);
  if (!legend.empty()) {
    o << "Pieces:";
    for (size_t i = 0; i < legend.size(); ++i) o << (i ? ", " : " ") << legend[i];
    o << "\n";
  }
  return o.str();
}

std::string markdown_divergence(const std::string& heading, const std::string& body,
                                const std::string& position, const std::map<char, std::string>& names) {
  std::ostringstream o;
  o << "### " << heading << "\n\n";
  std::istringstream in(body);
  for (std::string line; std::getline(in, line);) {
    size_t b = line.find_first_not_of(' ');
    if (b != std::string::npos) o << "- " << line.substr(b) << "\n";
  }
  o << "\n```\n" << text_diagram(position, names) << "```\n\n";
  return o.str();
}

}  // namespace arb::cli
