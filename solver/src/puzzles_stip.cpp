// Stipulation puzzles (see arbiter/puzzles.hpp): solution trees, quiet keys, economy.
#include <cctype>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "arbiter/json.hpp"
#include "arbiter/notation.hpp"
#include "arbiter/puzzles.hpp"
#include "arbiter/text_fields.hpp"
#include "arbiter/wording.hpp"

namespace arb::puzzles {

namespace {

std::string join(const std::vector<std::string>& v) {
  std::string o;
  for (const auto& s : v) o += (o.empty() ? "" : " ") + s;
  return o;
}

Json json_nodes(const std::vector<stip::TreeNode>& v) {
  Json o = Json::array();
  for (const stip::TreeNode& n : v) {
    Json j = {{"uci", n.uci}, {"moves", n.moves}};
    if (n.dual) j["dual"] = true;
    j["next"] = json_nodes(n.next);
    o.push_back(std::move(j));
  }
  return o;
}

}  // namespace

bool is_stipulation(const std::string& goal) {
  return goal != "mate" && goal != "win" && goal != "draw" && stip::parse_stipulation(goal).has_value();
}

std::string with_side(const std::string& position, Color side) {
  std::vector<std::string> f = field_strings(position);
  if (f.size() < 2 || (f[1] != "w" && f[1] != "b")) return position;
  std::string want = side == Color::White ? "w" : "b";
  if (f[1] == want) return position;
  f[1] = want;
  if (f.size() > 3) f[3] = "-";
  return join_fields(f);
}

// The tree as the puzzle file's tree column stores it (compared as text when re-solved).
std::string tree_json(const stip::Result& r) {
  Json o = Json::array();
  for (const stip::Line& l : r.solutions) {
    Json j = {{"uci", l.uci}};
    if (!l.threat.empty() || !l.defences.empty() || l.zugzwang) {
      j["threat"] = json_nodes(l.threat);
      j["zugzwang"] = l.zugzwang;
      j["defences"] = json_nodes(l.defences);
    }
    o.push_back(std::move(j));
  }
  return json_text(o);
}

bool sound(const stip::Result& r) {
  return r.outcome == stip::Outcome::Solved && r.solutions.size() == 1 && r.shorter.empty() &&
         r.solutions[0].moves > 0 && r.proved_none_below == r.solutions[0].moves &&
         !r.solutions[0].uci.empty();
}

stip::Result solve_stipulation(const Engine& engine, const stip::Stipulation& s, uint64_t max_nodes,
                               bool mate_needs_check) {
  stip::Options o;
  o.stip = s;
  o.shorter = true;
  o.tree = !s.series && s.play != stip::Play::Help;
  o.max_nodes = max_nodes;
  o.table_mb = 4;
  o.mate_needs_check = mate_needs_check;
  return stip::solve(engine, o);
}

bool quiet_first_move(Engine& e, const std::string& action) {
  std::vector<Action> ms;
  e.legal_actions(ms);
  for (const Action& a : ms) {
    if (uci(e.describe(a), e.chess960()) != action) continue;
    for (const Step& st : e.describe(a).steps)
      if (st.capture()) return false;
    return !e.gives_check(a);
  }
  return false;  // not legal here: not a quiet key
}

std::vector<BoardPiece> pieces_of(const std::string& position) {
  std::vector<BoardPiece> out;
  size_t end = position.find(' ');
  if (end == std::string::npos) end = position.size();
  int ranks = 1;
  for (size_t i = 0; i < end; ++i) ranks += position[i] == '/';
  if (ranks < 2) return {};
  int rank = ranks, file = 0;
  for (size_t i = 0; i < end; ++i) {
    char c = position[i];
    if (c == '/') {
      --rank;
      file = 0;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      int n = 0;
      while (i < end && std::isdigit(static_cast<unsigned char>(position[i])))
        n = n * 10 + (position[i++] - '0');
      --i;
      file += n;
    } else if (std::isalpha(static_cast<unsigned char>(c)) && file < 26) {
      out.push_back({i, c, std::string(1, static_cast<char>('a' + file)) + std::to_string(rank)});
      ++file;
    } else {
      return {};  // not a plain FEN board (holdings, markers): no economy
    }
  }
  return out;
}

std::string without_piece(const std::string& position, size_t index) {
  size_t end = position.find(' ');
  if (end == std::string::npos) end = position.size();
  if (index >= end || !std::isalpha(static_cast<unsigned char>(position[index]))) return "";
  // The piece becomes one empty square, merged with the digits either side.
  size_t a = index, b = index + 1;
  while (a > 0 && std::isdigit(static_cast<unsigned char>(position[a - 1]))) --a;
  while (b < end && std::isdigit(static_cast<unsigned char>(position[b]))) ++b;
  int n = 1;
  if (a < index) n += std::stoi(position.substr(a, index - a));
  if (index + 1 < b) n += std::stoi(position.substr(index + 1, b - index - 1));
  return position.substr(0, a) + std::to_string(n) + position.substr(b);
}

// Sets the position without the piece at `index` on `e`: false when the engine refuses it.
// Castling rights that relied on the piece go with it (each right kept only where the
// engine takes it alone): a rook's removal is not "illegal" for its castling right. The
// engine refuses what cannot stand (a side not to move in check, a missing king).
bool set_without(Engine& e, const std::string& position, size_t index) {
  const std::string q = without_piece(position, index);
  auto accepts = [&](const std::string& text) {
    try {
      e.set_position(text);
      return !e.chance();  // a finished game (dead, say) is the solver's to judge
    } catch (const std::exception&) {
      return false;
    }
  };
  if (accepts(q)) return true;
  std::vector<std::string> f = field_strings(q);
  if (f.size() < 3 || f[2] == "-") return false;
  std::string kept;
  for (char c : f[2]) {
    auto g = f;
    g[2] = std::string(1, c);
    if (accepts(join_fields(g))) kept += c;
  }
  f[2] = kept.empty() ? "-" : kept;
  return accepts(join_fields(f));
}

std::vector<Removal> economy(const Engine& engine, const Puzzle& p, uint64_t max_nodes,
                             bool mate_needs_check) {
  std::optional<stip::Stipulation> s = stip::parse_stipulation(p.goal);
  if (!s || !is_stipulation(p.goal))
    throw std::invalid_argument("economy is for stipulation puzzles, not `" + p.goal + "`");
  std::vector<BoardPiece> pieces = pieces_of(p.position);
  if (pieces.empty()) throw std::invalid_argument("economy needs a FEN-shaped position: " + p.position);
  std::unique_ptr<Engine> e = engine.clone();
  std::vector<Removal> out;
  for (const BoardPiece& bp : pieces) {
    Removal r{bp, ""};
    if (!set_without(*e, p.position, bp.index)) r.change = "illegal";
    if (r.change.empty()) {
      stip::Result x;
      try {
        x = solve_stipulation(*e, *s, max_nodes, mate_needs_check);
      } catch (const std::invalid_argument&) {
        x.outcome = stip::Outcome::None;
      }
      if (x.outcome == stip::Outcome::Unknown)
        r.change = "unknown";
      else if (x.outcome == stip::Outcome::None)
        r.change = "no solution";
      else if (!sound(x))
        r.change = "cooked";
      else
        r.change = tree_json(x) == p.tree ? "unchanged" : "solution changed";
    }
    out.push_back(std::move(r));
  }
  return out;
}

std::string verify_stipulation(Engine& e, const Puzzle& p) {
  std::optional<stip::Stipulation> s = stip::parse_stipulation(p.goal);
  if (!s) return "not a stipulation: " + p.goal;
  if (s->moves != p.depth) return "depth " + std::to_string(p.depth) + " is not the N of " + p.goal;
  if (p.tree.empty()) return "no solution tree";
  stip::Result r;
  try {
    e.set_position(p.position);
    r = solve_stipulation(e, *s, 20'000'000);
  } catch (const std::exception& ex) {
    return ex.what();
  }
  if (r.outcome != stip::Outcome::Solved)
    return "the solver does not solve it: " +
           std::string(r.outcome == stip::Outcome::None ? "none" : "unknown") +
           (r.why.empty() ? "" : " (" + r.why + ")");
  if (!sound(r))
    return "not sound: " + plural(r.solutions.size(), "solution") + " of " + std::to_string(s->moves) + ", " +
           std::to_string(r.shorter.size()) + " shorter";
  if (r.solutions[0].uci != p.solution)
    return "the solution is " + join(r.solutions[0].uci) + ", not " + join(p.solution);
  if (tree_json(r) != p.tree) return "the solution tree differs from the stored one";
  return "";
}

}  // namespace arb::puzzles
