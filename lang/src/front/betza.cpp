#include "arbiter/lang/betza.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <set>
#include <string>

namespace arb::lang {

namespace {

struct Atom {
  char letter;
  int a, b;  // leap (a, b), a >= b
};
const Atom kAtoms[] = {{'W', 1, 0}, {'F', 1, 1}, {'D', 2, 0}, {'N', 2, 1}, {'A', 2, 2},
                       {'H', 3, 0}, {'C', 3, 1}, {'Z', 3, 2}, {'G', 3, 3}};

const Atom* find_atom(char c) {
  for (const Atom& a : kAtoms)
    if (a.letter == c) return &a;
  return nullptr;
}

// All 8 (or 4) symmetric images of a leap.
std::vector<std::pair<int, int>> images(int a, int b) {
  std::set<std::pair<int, int>> s;
  for (int sx : {-1, 1})
    for (int sy : {-1, 1}) {
      s.insert({sx * a, sy * b});
      s.insert({sx * b, sy * a});
    }
  return {s.begin(), s.end()};
}

bool matches_one(char d, int dx, int dy) {
  int ax = std::abs(dx), ay = std::abs(dy);
  switch (d) {
    case 'f':
      return dy > 0;
    case 'b':
      return dy < 0;
    case 'l':
      return dx < 0;
    case 'r':
      return dx > 0;
    case 'v':
      return dx == 0 || ay > ax;
    case 's':
      return dy == 0 || ax > ay;
    case 'h':
      return true;
  }
  return false;
}

// A pair such as fl, fs, ff, bv narrows to the moves satisfying both; `ff` means the
// narrow forward moves (|dy| > |dx|), `fs` the wide ones.
bool matches_pair(char d1, char d2, int dx, int dy) {
  int ax = std::abs(dx), ay = std::abs(dy);
  if (d1 == d2) {
    if (d1 == 'f' || d1 == 'b') return matches_one(d1, dx, dy) && (ay > ax || dx == 0);
    if (d1 == 'l' || d1 == 'r') return matches_one(d1, dx, dy) && (ax > ay || dy == 0);
  }
  return matches_one(d1, dx, dy) && matches_one(d2, dx, dy);
}

bool is_pair(char d1, char d2) {
  bool v1 = d1 == 'f' || d1 == 'b', h1 = d1 == 'l' || d1 == 'r';
  bool v2 = d2 == 'f' || d2 == 'b', h2 = d2 == 'l' || d2 == 'r';
  if (v1 && (h2 || d2 == d1 || d2 == 's' || d2 == 'v')) return true;
  if (h1 && (v2 || d2 == d1 || d2 == 'v' || d2 == 's')) return true;
  return false;
}

}  // namespace

bool parse_betza(const std::string& text, std::vector<BetzaMove>& out, BetzaError& err) {
  size_t i = 0;
  if (text.empty()) {
    err = {"empty Betza string", 0};
    return false;
  }
  while (i < text.size()) {
    size_t group_start = i;
    std::string dirs;
    bool m = false, c = false, e = false, ini = false, lame = false;
    char hop = 0;
    std::string unsupported;
    while (i < text.size() && std::islower(static_cast<unsigned char>(text[i]))) {
      char ch = text[i];
      switch (ch) {
        case 'f':
        case 'b':
        case 'l':
        case 'r':
        case 'v':
        case 's':
        case 'h':
          dirs.push_back(ch);
          break;
        case 'm':
          m = true;
          break;
        case 'c':
          c = true;
          break;
        case 'e':
          e = true;
          break;
        case 'i':
          ini = true;
          break;
        case 'n':
          lame = true;
          break;
        case 'p':
        case 'g':
          if (hop && hop != ch) {
            err = {"`p` and `g` exclude each other", i};
            return false;
          }
          hop = ch;
          break;
        case 'd':
        case 'a':
        case 'j':
        case 'o':
        case 'u':
        case 'x':
        case 'y':
        case 't':
          unsupported.push_back(ch);
          break;
        default:
          err = {std::string("unknown Betza modifier `") + ch + "`", i};
          return false;
      }
      ++i;
    }
    if (i >= text.size()) {
      err = {"modifiers without an atom", group_start};
      return false;
    }
    char atom = text[i];
    std::vector<std::pair<const Atom*, int>> parts;  // atom, range
    // A count after the atom: 0 is an unlimited rider, so a count must never wrap around
    // to 0 (or to a negative range); counts above kMaxBetzaRange are an error.
    bool range_too_large = false;
    size_t range_pos = 0;
    auto rider_suffix = [&](size_t& p, int deflt) {
      int range = deflt;
      if (p < text.size() && std::isdigit(static_cast<unsigned char>(text[p]))) {
        range = 0;
        range_pos = p;
        while (p < text.size() && std::isdigit(static_cast<unsigned char>(text[p]))) {
          range = range * 10 + (text[p++] - '0');
          if (range > kMaxBetzaRange) {
            range_too_large = true;
            range = kMaxBetzaRange + 1;
          }
        }
      }
      return range;
    };
    size_t atom_pos = i;
    ++i;
    if (atom == 'K' || atom == 'Q' || atom == 'R' || atom == 'B') {
      int deflt = atom == 'K' ? 1 : 0;
      int range = rider_suffix(i, deflt);
      if (atom == 'K' || atom == 'Q') {
        parts.push_back({find_atom('W'), range});
        parts.push_back({find_atom('F'), range});
      } else {
        parts.push_back({find_atom(atom == 'R' ? 'W' : 'F'), range});
      }
    } else if (const Atom* a = find_atom(atom)) {
      int range = 1;
      if (i < text.size() && text[i] == atom) {  // doubled: rider
        ++i;
        range = 0;
      }
      range = rider_suffix(i, range);
      parts.push_back({a, range});
    } else {
      err = {std::string("unknown Betza atom `") + atom + "`", atom_pos};
      return false;
    }
    if (range_too_large) {
      err = {"rider range too large: at most " + std::to_string(kMaxBetzaRange) +
                 " steps (a doubled atom or a count of 0 rides without limit)",
             range_pos};
      return false;
    }
    if (!m && !c) m = c = true;
    if (e) c = true;
    for (auto [a, range] : parts) {
      // Two direction letters are a pair (`fl`: the one forward-left diagonal of F) only
      // where the pair names moves of the atom; on an orthogonal atom `fs` or `fl` names
      // none, and there each letter counts alone (`fsmW`: forward and sideways, as
      // Fairy-Stockfish reads it).
      const auto* atom = a;  // a structured binding: lambdas capture it by name only from C++20 clang 16 on
      auto pair_names_moves = [&](char d1, char d2) {
        for (auto [px, py] : images(atom->a, atom->b))
          if (matches_pair(d1, d2, px, py)) return true;
        return false;
      };
      for (auto [dx, dy] : images(a->a, a->b)) {
        bool keep = dirs.empty();
        for (size_t k = 0; k < dirs.size(); ++k) {
          if (k + 1 < dirs.size() && is_pair(dirs[k], dirs[k + 1]) &&
              pair_names_moves(dirs[k], dirs[k + 1])) {
            if (matches_pair(dirs[k], dirs[k + 1], dx, dy)) keep = true;
            ++k;
          } else if (matches_one(dirs[k], dx, dy)) {
            keep = true;
          }
        }
        if (!keep) continue;
        BetzaMove mv;
        mv.dx = dx;
        mv.dy = dy;
        mv.range = range;
        mv.can_move = m;
        mv.can_capture = c;
        mv.en_passant = e;
        mv.initial = ini;
        mv.lame = lame;
        mv.hop = hop;
        mv.unsupported = unsupported;
        // A lame leap is blocked by the squares it passes: those on its line for a straight
        // leap (D, A, H, G), the orthogonal first step then diagonal steps for a leap whose
        // sides differ by one (N the xiangqi horse, Z the janggi elephant).
        if (lame && range == 1 && dx != 0 && dy != 0 && std::abs(dx) != std::abs(dy) &&
            std::abs(std::abs(dx) - std::abs(dy)) != 1) {
          err = {
              "lame (`n`) needs a straight leap (D, A, H, G), N (the xiangqi horse) or Z (the janggi "
              "elephant): the squares it passes must be known",
              group_start};
          return false;
        }
        out.push_back(mv);
      }
    }
    if (dirs.size() && out.empty()) {
      err = {"the directions select no move of this atom", group_start};
      return false;
    }
  }
  return true;
}

}  // namespace arb::lang
