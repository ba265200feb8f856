// No Stress Chess reference engine (nostress.cpp): squares, moves and the encoding of
// actions, Zobrist keys, attacks, a move played on the board, the whole position (State),
// the `deck` option and the phases of a turn. Written from the rule text and RULINGS.md
// sections 0 and 3 alone, like the rest of the engine (no move logic shared with lang/);
// included by nostress.cpp only.
#pragma once

#include <array>
#include <cctype>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "arbiter/engine.hpp"
#include "arbiter/nostress_text.hpp"

namespace arb::ref::nostress {

constexpr int kWhite = 0;
constexpr int kBlack = 1;

// Squares 0..63: rank index * 8 + file (rank index 0 = rank 1).
constexpr int file_of(int sq) {
  return sq & 7;
}
constexpr int rank_of(int sq) {
  return sq >> 3;
}
inline Coord to_coord(int sq) {
  return Coord{file_of(sq), rank_of(sq) + 1};
}
inline int color_of(char p) {
  return std::isupper(static_cast<unsigned char>(p)) ? kWhite : kBlack;
}
inline char upper(char p) {
  return static_cast<char>(std::toupper(static_cast<unsigned char>(p)));
}
inline char piece_of(int color, char up) {
  return color == kWhite ? up : static_cast<char>(std::tolower(static_cast<unsigned char>(up)));
}
inline int forward(int color) {
  return color == kWhite ? 1 : -1;
}

constexpr int kKnight[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
constexpr int kKingDirs[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
constexpr int kRookDirs[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
constexpr int kBishopDirs[4][2] = {{1, 1}, {-1, 1}, {-1, -1}, {1, -1}};

// The square (file + df, rank + dr), or -1 off the board.
inline int offset(int sq, int df, int dr) {
  int f = file_of(sq) + df, r = rank_of(sq) + dr;
  return (f < 0 || f > 7 || r < 0 || r > 7) ? -1 : r * 8 + f;
}

enum MoveKind : uint8_t { kNormal = 0, kDouble, kEnPassant, kCastle };

// A move. For castling `to` is the castling rook's square; `promo` an upper-case letter.
struct Move {
  uint8_t from = 0;
  uint8_t to = 0;
  uint8_t kind = kNormal;
  char promo = 0;
};

enum ActKind : uint8_t { kPlay = 1, kPass, kRedraw, kDraw };

struct Act {
  ActKind kind = kPlay;
  char card = 0;  // the card played (kPlay, kPass) or drawn (kDraw)
  Move move;
};

constexpr uint64_t kActionTag = 0x4e4f535452455353ULL;  // "NOSTRESS"

inline Action encode(const Act& a) {
  Action out;
  out.lo = static_cast<uint64_t>(a.kind) | static_cast<uint64_t>(static_cast<uint8_t>(a.card)) << 8 |
           static_cast<uint64_t>(a.move.from) << 16 | static_cast<uint64_t>(a.move.to) << 24 |
           static_cast<uint64_t>(a.move.kind) << 32 |
           static_cast<uint64_t>(static_cast<uint8_t>(a.move.promo)) << 40;
  out.hi = kActionTag;
  return out;
}

inline Act decode(const Action& a) {
  if (a.hi != kActionTag || (a.lo >> 48) != 0)
    throw std::invalid_argument("reference:nostress: foreign action");
  Act out;
  out.kind = static_cast<ActKind>(a.lo & 0xff);
  out.card = static_cast<char>((a.lo >> 8) & 0xff);
  out.move.from = static_cast<uint8_t>((a.lo >> 16) & 0xff);
  out.move.to = static_cast<uint8_t>((a.lo >> 24) & 0xff);
  out.move.kind = static_cast<uint8_t>((a.lo >> 32) & 0xff);
  out.move.promo = static_cast<char>((a.lo >> 40) & 0xff);
  if (out.kind < kPlay || out.kind > kDraw || out.move.from > 63 || out.move.to > 63 ||
      out.move.kind > kCastle)
    throw std::invalid_argument("reference:nostress: malformed action");
  if (out.kind != kRedraw && nostress_card_index(out.card) < 0)
    throw std::invalid_argument("reference:nostress: malformed action (card)");
  return out;
}

inline uint64_t splitmix(uint64_t& state) {
  state += 0x9E3779B97F4A7C15ULL;
  uint64_t z = state;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// Zobrist keys of the repetition key (board, side, castling, en passant).
struct Zobrist {
  uint64_t piece[12][64] = {};
  uint64_t castle[4] = {};
  uint64_t ep_file[8] = {};
  uint64_t black = 0;
  Zobrist() {
    uint64_t state = 0x4E6F537472657373ULL;
    for (auto& row : piece)
      for (auto& k : row) k = splitmix(state);
    for (auto& k : castle) k = splitmix(state);
    for (auto& k : ep_file) k = splitmix(state);
    black = splitmix(state);
  }
};
inline const Zobrist& zobrist() {
  static const Zobrist z;
  return z;
}
inline int piece_index(char p) {
  static const std::string kLetters = "PNBRQKpnbrqk";
  return static_cast<int>(kLetters.find(p));
}

using Board = std::array<char, 64>;

// Whether `sq` is attacked by a piece of colour `by`: a piece of `by` could capture there.
inline bool attacked(const Board& b, int sq, int by) {
  for (int df : {-1, 1}) {
    int s = offset(sq, df, -forward(by));
    if (s >= 0 && b[s] == piece_of(by, 'P')) return true;
  }
  for (const auto& d : kKnight) {
    int s = offset(sq, d[0], d[1]);
    if (s >= 0 && b[s] == piece_of(by, 'N')) return true;
  }
  for (const auto& d : kKingDirs) {
    int s = offset(sq, d[0], d[1]);
    if (s >= 0 && b[s] == piece_of(by, 'K')) return true;
  }
  for (const auto& d : kRookDirs)
    for (int s = offset(sq, d[0], d[1]); s >= 0; s = offset(s, d[0], d[1])) {
      if (!b[s]) continue;
      if (b[s] == piece_of(by, 'R') || b[s] == piece_of(by, 'Q')) return true;
      break;
    }
  for (const auto& d : kBishopDirs)
    for (int s = offset(sq, d[0], d[1]); s >= 0; s = offset(s, d[0], d[1])) {
      if (!b[s]) continue;
      if (b[s] == piece_of(by, 'B') || b[s] == piece_of(by, 'Q')) return true;
      break;
    }
  return false;
}

inline int king_square(const Board& b, int color) {
  for (int sq = 0; sq < 64; ++sq)
    if (b[sq] == piece_of(color, 'K')) return sq;
  return -1;
}

// Castling squares: index 0 White king side, 1 White queen side, 2 Black king side, 3
// Black queen side (the KQkq order).
inline int castle_index(int color, bool king_side) {
  return color * 2 + (king_side ? 0 : 1);
}

// Plays `m` (of colour `us`) on the board. Returns the captured piece (0 for none) and its
// square.
inline std::pair<char, int> play_on_board(Board& b, const Move& m, int us) {
  switch (m.kind) {
    case kCastle: {
      bool king_side = file_of(m.to) > file_of(m.from);
      int r = rank_of(m.from);
      char king = b[m.from], rook = b[m.to];
      b[m.from] = 0;
      b[m.to] = 0;
      b[r * 8 + (king_side ? 6 : 2)] = king;
      b[r * 8 + (king_side ? 5 : 3)] = rook;
      return {0, -1};
    }
    case kEnPassant: {
      int victim = rank_of(m.from) * 8 + file_of(m.to);
      char cap = b[victim];
      b[victim] = 0;
      b[m.to] = b[m.from];
      b[m.from] = 0;
      return {cap, victim};
    }
    default: {
      char cap = b[m.to];
      b[m.to] = m.promo ? piece_of(us, m.promo) : b[m.from];
      b[m.from] = 0;
      return {cap, cap ? static_cast<int>(m.to) : -1};
    }
  }
}

// The whole position: what the text records.
struct State {
  Board board{};
  int side = kWhite;
  std::array<bool, 4> castle{};  // KQkq
  int ep = -1;                   // en-passant target square, set only when a capture there is legal
  int halfmove = 0;
  int fullmove = 1;
  NoStressCards pile;  // top first
  std::string discard[2];
  NoStressCards hand[2];
  bool has_seed = false;
  uint64_t seed = 0;
  int pending = 0;
};

// The `deck` option's text: each kind with a positive count, letter then count, in
// P N B R Q K A order (`P11N8B8R8Q8K7A6` for No Stress Chess's deck).
inline std::string deck_option(const std::array<int, 7>& deck) {
  std::string out;
  for (size_t k = 0; k < deck.size(); ++k)
    if (deck[k] > 0) out += kNoStressCardKinds[k] + std::to_string(deck[k]);
  return out;
}

// Reads the `deck` option: pairs of a card letter (P N B R Q K A) and a decimal count, each
// kind at most once, in any order; a kind not listed has no cards.
inline std::array<int, 7> parse_deck_option(const std::string& v) {
  auto bad = [&v](const std::string& why) {
    return std::invalid_argument("nostress: option deck '" + v + "': " + why +
                                 " (write each card kind's letter, P N B R Q K A, then its count, "
                                 "e.g. P11N8B8R8Q8K7A6)");
  };
  if (v.empty()) throw bad("empty");
  std::array<int, 7> deck{};
  std::array<bool, 7> seen{};
  size_t i = 0;
  while (i < v.size()) {
    int k = nostress_card_index(v[i]);
    if (k < 0) throw bad(std::string("'") + v[i] + "' at " + std::to_string(i) + " is not a card kind");
    if (seen[k]) throw bad(std::string("kind ") + v[i] + " is given twice");
    seen[k] = true;
    size_t j = i + 1;
    while (j < v.size() && std::isdigit(static_cast<unsigned char>(v[j]))) ++j;
    if (j == i + 1) throw bad(std::string("kind ") + v[i] + " has no count");
    std::string digits = v.substr(i + 1, j - i - 1);
    digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size() - 1));  // leading zeros
    if (digits.size() > 2)
      throw bad(std::string("count of ") + v[i] + " is over " + std::to_string(kNoStressMaxKindCount));
    deck[k] = std::stoi(digits);
    i = j;
  }
  int total = 0;
  for (int n : deck) total += n;
  if (total == 0) throw bad("the deck has no cards");
  return deck;
}

// What the side to move faces.
enum class Phase {
  Over,           // the game is decided
  ChancePending,  // chance: the next card of a redraw
  ChanceReveal,   // chance: an unknown card of the own hand is revealed
  ChanceDraw,     // chance: the turn's draw is unknown
  DrawThenAct,    // the turn's draw is known: actions include it
  Act,            // the turn's card is drawn: the player acts
};

}  // namespace arb::ref::nostress
