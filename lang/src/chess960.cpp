// The start of a program with `setup chess960` and armies: Chess960 back ranks by their
// standard number, and each army's substitution of the setup's letters (RULINGS 4.2).
#include <cctype>
#include <cstdint>
#include <string>

#include "arbiter/lang/program.hpp"
#include "arbiter/random.hpp"

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

std::string chess960_back_rank(int n) {
  if (n < 0 || n > 959) throw PositionError("start:N needs N in 0..959", 6);
  return back_rank(n);
}

int chess960_number(const std::string& rank) {
  // The inverse of back_rank(): the light bishop's index among b d f h, the dark one's
  // among a c e g, the queen's among the six squares the bishops leave, the knights' pair
  // among the five the queen leaves (pairs in back_rank's order).
  if (rank.size() != 8) return -1;
  int light = -1, dark = -1, queen = -1, k1 = -1, k2 = -1;
  for (int f = 0, free6 = 0, free5 = 0; f < 8; ++f) {
    const char c = rank[static_cast<size_t>(f)];
    if (c == 'B') {
      (f % 2 ? light : dark) = f / 2;
      continue;
    }
    if (c == 'Q') queen = free6;
    ++free6;
    if (c == 'Q') continue;
    if (c == 'N') (k1 < 0 ? k1 : k2) = free5;
    ++free5;
  }
  if (light < 0 || dark < 0 || queen < 0 || k2 < 0) return -1;
  int pair = 0;
  for (int a = 0; a < 5; ++a)
    for (int b = a + 1; b < 5; ++b, ++pair)
      if (a == k1 && b == k2) {
        const int n = light + 4 * dark + 16 * queen + 96 * pair;
        return back_rank(n) == rank ? n : -1;
      }
  return -1;
}

int chess960_dice_start(uint64_t seed) {
  // The die: splitmix64 from `seed` (the state advanced by 0x9E3779B97F4A7C15 per draw, then
  // the standard mix); an output z below 2^64 - 4 (the largest multiple of 6 it can reach)
  // shows face z % 6 + 1, a larger one is drawn again (README, Chess 2: the contract the
  // reference engine's procedure follows too).
  uint64_t state = seed;
  auto die = [&state] {
    for (;;) {
      const uint64_t z = arb::splitmix64_next(state);
      if (z < UINT64_MAX - UINT64_MAX % 6) return static_cast<int>(z % 6) + 1;
    }
  };
  // "Reroll a 5 or 6": a face above `most` is rolled again.
  auto roll = [&die](int most) {
    for (;;)
      if (int face = die(); face <= most) return face;
  };
  std::string rank(8, ' ');
  // The k-th empty square from the left (a = the left, White's view) gets `piece`.
  auto place = [&rank](int k, char piece) {
    for (char& c : rank)
      if (c == ' ' && --k == 0) {
        c = piece;
        return;
      }
  };
  // 1) a bishop on the k-th dark square from the left (a1 c1 e1 g1), reroll 5 and 6;
  rank[static_cast<size_t>(2 * (roll(4) - 1))] = 'B';
  // 2) a bishop on the k-th light square (b1 d1 f1 h1), reroll 5 and 6;
  rank[static_cast<size_t>(2 * (roll(4) - 1) + 1)] = 'B';
  // 3) the queen on the k-th of the six empty squares;
  place(roll(6), 'Q');
  // 4) a knight on the k-th of the five empty squares, reroll a 6;
  place(roll(5), 'N');
  // 5) a knight on the k-th of the four empty squares, reroll 5 and 6;
  place(roll(4), 'N');
  // 6) the king on the middle of the three empty squares, rooks on the other two.
  place(1, 'R');
  place(1, 'K');
  place(1, 'R');
  return chess960_number(rank);
}

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
