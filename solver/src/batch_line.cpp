// The line reader of batch files (`arbiter solve --epd`): stipulation.hpp describes it.
#include <cctype>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "arbiter/stipulation.hpp"

namespace arb::stip {

namespace {

std::string trim(std::string_view s) {
  size_t a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
  return a == std::string_view::npos ? "" : std::string(s.substr(a, b - a + 1));
}

}  // namespace

std::optional<BatchLine> parse_batch_line(std::string_view raw, const std::optional<Stipulation>& fixed) {
  const std::string line = trim(raw);
  if (line.empty() || line[0] == '#') return std::nullopt;
  std::vector<std::string> fields;
  std::stringstream ss(line);
  for (std::string f; std::getline(ss, f, ';');) fields.push_back(trim(f));
  if (fields.empty()) fields.emplace_back();
  std::vector<std::string> tok;
  std::istringstream ts(fields[0]);
  for (std::string t; ts >> t;) tok.push_back(t);
  BatchLine out;
  std::vector<std::string> ops(fields.begin() + 1, fields.end());
  // EPD: four position fields then operations (`bm #2;`), or a whole FEN (its two counters
  // kept) then operations, as the corpus files and most EPD writers give them.
  auto number = [](const std::string& t) {
    return !t.empty() && t.find_first_not_of("0123456789") == std::string::npos;
  };
  const bool side = tok.size() >= 5 && (tok[1] == "w" || tok[1] == "b");
  const bool four_fields = side && !number(tok[4]);
  const bool full_fen = side && tok.size() >= 7 && number(tok[4]) && number(tok[5]) && !number(tok[6]);
  const bool epd_ops = four_fields || full_fen;
  if (epd_ops) {
    const size_t ops_at = four_fields ? 4 : 6;
    out.position = tok[0] + " " + tok[1] + " " + tok[2] + " " + tok[3] +
                   (four_fields ? std::string(" 0 1") : " " + tok[4] + " " + tok[5]);
    std::string first;
    for (size_t i = ops_at; i < tok.size(); ++i) first += (i > ops_at ? " " : "") + tok[i];
    ops.insert(ops.begin(), first);
  } else {
    out.position = fields[0];
  }
  std::optional<Stipulation> st = fixed;
  if (!fixed && !epd_ops && !ops.empty()) {  // POSITION;STIPULATION[;notes]
    st = parse_stipulation(ops[0]);
    if (!st)
      throw std::invalid_argument(
          "`" + ops[0] + "` names no stipulation this solver knows (#N =N h#N h#N.5 h=N s#N r#N ser-...)");
  }
  for (size_t k = 0; !fixed && epd_ops && k < ops.size(); ++k) {
    std::istringstream os(ops[k]);
    std::string code, arg;
    os >> code >> arg;
    if (arg.size() >= 2 && arg.front() == '"' && arg.back() == '"') arg = arg.substr(1, arg.size() - 2);
    std::optional<Stipulation> s;
    if (code == "bm" && arg.size() > 1 && arg[0] == '#' && arg[1] != '-')
      s = parse_stipulation(arg);
    else if (code == "dm")
      s = parse_stipulation("#" + arg);
    else if (code == "stip")
      s = parse_stipulation(arg);
    else
      continue;  // an operation of no concern (id, c0, a best move, ...)
    if (!s)
      throw std::invalid_argument(
          "`" + ops[k] + "` names no stipulation this solver knows (#N =N h#N h#N.5 h=N s#N ser-...)");
    st = s;
  }
  if (!st)
    throw std::invalid_argument("no stipulation: give one on the line (`;h#2`, `dm 2;`) or --stipulation");
  out.stip = *st;
  return out;
}

}  // namespace arb::stip
