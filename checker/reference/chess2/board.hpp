// Chess 2 reference engine (chess2.cpp): armies, pieces, squares, the encoding of steps and
// turns, Zobrist keys and the position. Written from ../shared/rules/chess2.txt and
// RULINGS.md section 4 alone, like the rest of the engine; included by chess2.cpp only.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "arbiter/engine.hpp"

namespace arb::ref::chess2 {

// ---------------------------------------------------------------------------------------
// Armies and pieces.

enum Army : uint8_t {
  kClassicArmy,
  kNemesisArmy,
  kEmpoweredArmy,
  kReaperArmy,
  kTwoKingsArmy,
  kAnimalsArmy,
  kArmyCount
};
constexpr const char* kArmyNames[kArmyCount] = {"classic", "nemesis",   "empowered",
                                                "reaper",  "two-kings", "animals"};

enum Type : uint8_t {
  kNone,
  kPawn,
  kKnight,
  kBishop,
  kRook,
  kQueen,
  kKing,
  kNemesisPawn,
  kNemesis,
  kEQueen,
  kEBishop,
  kEKnight,
  kERook,
  kReaper,
  kGhost,
  kWarrior,
  kElephant,
  kHorse,
  kTiger,
  kJungle,
  kTypeCount
};
constexpr char kLetters[] = " PNBRQKLMOXYZAGWEHTJ";
static_assert(sizeof(kLetters) == kTypeCount + 1);

// The letters (upper case) of each army's pieces, and its promotion choices (RULINGS 4.10).
constexpr const char* kArmyLetters[kArmyCount] = {"KQRBNP", "KMRBNL", "KOZXYP", "KAGBNP", "WRBNP", "KJETHP"};
constexpr const char* kPromotions[kArmyCount] = {"QRBN", "MRBN", "OZXY", "AGBN", "RBN", "JETH"};

constexpr int kWhite = 0;
constexpr int kBlack = 1;

using Piece = uint8_t;  // type | colour << 5; 0 = empty
constexpr Piece make_piece(int color, int type) {
  return static_cast<Piece>(type | (color << 5));
}
constexpr int type_of(Piece p) {
  return p & 31;
}
constexpr int color_of(Piece p) {
  return p >> 5;
}
constexpr bool is_royal_type(int t) {
  return t == kKing || t == kWarrior;
}
inline char upper_letter(int t) {
  return kLetters[t];
}
inline char fen_letter(Piece p) {
  char c = kLetters[type_of(p)];
  return color_of(p) == kWhite ? c : static_cast<char>(c - 'A' + 'a');
}
inline int type_of_letter(char up) {
  for (int t = 1; t < kTypeCount; ++t)
    if (kLetters[t] == up) return t;
  return kNone;
}
inline bool is_pawn_type(int t) {
  return t == kPawn || t == kNemesisPawn;
}
// Empowered movement bits: 1 knight, 2 bishop, 4 rook.
inline int empowered_base(int t) {
  return t == kEKnight ? 1 : t == kEBishop ? 2 : t == kERook ? 4 : 0;
}

// ---------------------------------------------------------------------------------------
// Squares.

inline int file_of(int s) {
  return s & 7;
}
inline int rank_of(int s) {
  return s >> 3;
}
inline int shift(int s, int dx, int dy) {
  int x = file_of(s) + dx, y = rank_of(s) + dy;
  return (x < 0 || x > 7 || y < 0 || y > 7) ? -1 : y * 8 + x;
}
inline int chebyshev(int a, int b) {
  return std::max(std::abs(file_of(a) - file_of(b)), std::abs(rank_of(a) - rank_of(b)));
}
inline Coord to_coord(int s) {
  return Coord{file_of(s), rank_of(s) + 1};
}
inline int forward(int color) {
  return color == kWhite ? 1 : -1;
}
inline int back_rank(int color) {
  return color == kWhite ? 0 : 7;
}
// Whether rank index `r` lies in the half of the board that belongs to `color`'s enemy.
inline bool across_midline(int color, int r) {
  return color == kWhite ? r >= 4 : r <= 3;
}
// How many steps fit on the board from `s` in direction (dx, dy), at most 3.
inline int reach3(int s, int dx, int dy) {
  int n = 0;
  for (int q = shift(s, dx, dy); q >= 0 && n < 3; q = shift(q, dx, dy)) ++n;
  return n;
}

struct Dir {
  int dx, dy;
};
constexpr std::array<Dir, 4> kOrth = {{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}};
constexpr std::array<Dir, 4> kDiag = {{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}};
constexpr std::array<Dir, 8> kKnightDirs = {
    {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}};
constexpr std::array<Dir, 8> kKingDirs = {
    {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}}};

// ---------------------------------------------------------------------------------------
// Moves (one step each) and actions (one or two steps).

enum Kind : uint8_t { kQuiet, kDouble, kEnPassant, kCastle, kRampage, kWhirl, kStrike, kKindCount };

// kQuiet also covers captures (the piece on `to` is removed), nemesis-pawn moves and
// promotions (promo != 0). kCastle: `to` is the castling rook's square. kRampage: `to` is
// the end of the path. kWhirl: `from` = `to` = the warrior king. kStrike: `to` is the target.
struct Mv {
  uint8_t from = 0, to = 0, kind = kQuiet, promo = kNone;
};

struct Turn {
  Mv first;
  bool has_second = false;
  Mv second;
};

constexpr uint64_t kActionTag = 0x5245464348535332ULL;  // "REFCHSS2"

inline uint64_t pack(const Mv& m) {
  return static_cast<uint64_t>(m.from) | static_cast<uint64_t>(m.to) << 6 |
         static_cast<uint64_t>(m.kind) << 12 | static_cast<uint64_t>(m.promo) << 15;
}
inline Mv unpack(uint64_t v) {
  Mv m;
  m.from = static_cast<uint8_t>(v & 63);
  m.to = static_cast<uint8_t>((v >> 6) & 63);
  m.kind = static_cast<uint8_t>((v >> 12) & 7);
  m.promo = static_cast<uint8_t>((v >> 15) & 31);
  if (m.kind >= kKindCount || m.promo >= kTypeCount)
    throw std::invalid_argument("reference:chess2: malformed action");
  return m;
}
inline Action encode(const Turn& t) {
  Action a;
  a.lo = pack(t.first) | (t.has_second ? (pack(t.second) << 20 | 1ULL << 40) : 0);
  a.hi = kActionTag;
  return a;
}
inline Turn decode(const Action& a) {
  if (a.hi != kActionTag || (a.lo >> 41) != 0)
    throw std::invalid_argument("reference:chess2: foreign action");
  Turn t;
  t.first = unpack(a.lo & 0xFFFFF);
  t.has_second = (a.lo >> 40) & 1;
  if (t.has_second) t.second = unpack((a.lo >> 20) & 0xFFFFF);
  return t;
}

// ---------------------------------------------------------------------------------------
// Zobrist keys (splitmix64, fixed).

struct Zobrist {
  uint64_t piece[64][64] = {};  // piece code, square
  uint64_t castle[2][8] = {};
  uint64_t ep_file[8] = {};
  uint64_t black_to_move = 0;
  Zobrist() {
    uint64_t state = 0xC2E55C2E55C2E55ULL;
    auto next = [&state]() {
      uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
      return z ^ (z >> 31);
    };
    for (auto& row : piece)
      for (auto& k : row) k = next();
    for (auto& row : castle)
      for (auto& k : row) k = next();
    for (auto& k : ep_file) k = next();
    black_to_move = next();
  }
};
inline const Zobrist& zobrist() {
  static const Zobrist z;
  return z;
}

// ---------------------------------------------------------------------------------------
// The position at the start of a turn (or between a normal action and its king-turn).

constexpr int kKingSide = 0;
constexpr int kQueenSide = 1;

struct Pos {
  std::array<Piece, 64> b{};
  int side = kWhite;
  // [colour][kKingSide / kQueenSide] = file of the castling rook, or -1.
  std::array<std::array<int8_t, 2>, 2> rook_file = {{{-1, -1}, {-1, -1}}};
  int ep = -1;  // the square a double step skipped, or -1
  int halfmove = 0;
  int fullmove = 1;
};

// What applying one step did, for describe() and the fifty-move counter.
struct StepResult {
  std::vector<std::pair<int, Piece>> removed;  // square, piece, in the order removed
  bool pawn_moved = false;
};

}  // namespace arb::ref::chess2
