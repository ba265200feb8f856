// The start of a program with `setup chess960` and armies: Chess960 back ranks by their
// standard number, and each army's substitution of the setup's letters (RULINGS 4.2).
#include <cctype>
#include <string>

#include "arbiter/lang/compile.hpp"

namespace arb::lang {

namespace {

// The back rank of Chess960 start n in classic letters (standard numbering: the light
// bishop, the dark bishop, the queen on the free squares, the knights' pair, then R K R).
std::string back_rank(int n) {
  std::string r(8, ' ');
  r[2 * (n % 4) + 1] = 'B';
  n /= 4;
  r[2 * (n % 4)] = 'B';
  n /= 4;
  auto free_square = [&](int k) {
    for (int f = 0; f < 8; ++f)
      if (r[f] == ' ' && k-- == 0) return f;
    return -1;
  };
  r[free_square(n % 6)] = 'Q';
  n /= 6;
  static const int pairs[10][2] = {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2},
                                   {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}};
  int a = free_square(pairs[n][0]), b = free_square(pairs[n][1]);
  r[a] = r[b] = 'N';
  r[free_square(0)] = 'R';
  r[free_square(0)] = 'K';
  r[free_square(0)] = 'R';
  return r;
}

}  // namespace

std::string program_start(const Program& p, int n) {
  std::string text = p.start_text;
  if (n >= 0) {
    if (!p.chess960_setup || p.width != 8 || p.height != 8)
      throw PositionError("`start:N` needs a ruleset with `setup chess960`", 0);
    if (n > 959) throw PositionError("start:N needs N in 0..959", 6);
    std::string rank = back_rank(n), lower;
    for (char c : rank) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    std::string castling;
    for (int f = 7; f >= 0; --f)
      if (rank[f] == 'R') castling.push_back(static_cast<char>('A' + f));
    castling += castling;
    for (size_t i = 2; i < 4; ++i) castling[i] = static_cast<char>(std::tolower(castling[i]));
    text = lower + "/pppppppp/8/8/8/8/PPPPPPPP/" + rank + " w " + castling + " - 0 1";
  }
  if (p.army_base.empty()) return text;
  // The armies' substitutions on the board field; castling rights only for castling armies.
  size_t space = text.find(' ');
  for (size_t i = 0; i < space && i < text.size(); ++i) {
    char c = text[i];
    if (!std::isalpha(static_cast<unsigned char>(c))) continue;
    int color = std::islower(static_cast<unsigned char>(c)) ? 1 : 0;
    size_t slot = p.army_base.find(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
    if (slot == std::string::npos) continue;
    char to = p.army_slots[color][slot];
    text[i] = color ? static_cast<char>(std::tolower(static_cast<unsigned char>(to))) : to;
  }
  size_t cf = text.find(' ', space + 1);
  if (cf == std::string::npos) return text;
  size_t ce = text.find(' ', cf + 1);
  std::string field = text.substr(cf + 1, ce == std::string::npos ? std::string::npos : ce - cf - 1), kept;
  for (char c : field) {
    int color = std::islower(static_cast<unsigned char>(c)) ? 1 : 0;
    if (c != '-' && p.castles[color]) kept.push_back(c);
  }
  if (kept.empty()) kept = "-";
  return text.substr(0, cf + 1) + kept + (ce == std::string::npos ? "" : text.substr(ce));
}

}  // namespace arb::lang
