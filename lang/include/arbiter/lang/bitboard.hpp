// The bitboard back end's library: bitboard types (uint64_t, and Wide<W> beyond 64
// squares), their operations (namespace bb), and the per-square tables the compiler builds
// from a Program for the generator (PieceTables, BoardTables). The Z3 synthesis reads the
// same tables.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "arbiter/lang/program.hpp"

namespace arb::lang {

// A bitboard wider than 64 squares: W words, square s is bit s % 64 of word s / 64.
template <int W>
struct Wide {
  uint64_t w[W] = {};
  explicit operator bool() const {
    uint64_t any = 0;
    for (int i = 0; i < W; ++i) any |= w[i];
    return any != 0;
  }
  friend Wide operator&(Wide a, const Wide& b) { return a &= b; }
  friend Wide operator|(Wide a, const Wide& b) { return a |= b; }
  friend Wide operator^(Wide a, const Wide& b) { return a ^= b; }
  Wide operator~() const {
    Wide r;
    for (int i = 0; i < W; ++i) r.w[i] = ~w[i];
    return r;
  }
  Wide& operator&=(const Wide& b) {
    for (int i = 0; i < W; ++i) w[i] &= b.w[i];
    return *this;
  }
  Wide& operator|=(const Wide& b) {
    for (int i = 0; i < W; ++i) w[i] |= b.w[i];
    return *this;
  }
  Wide& operator^=(const Wide& b) {
    for (int i = 0; i < W; ++i) w[i] ^= b.w[i];
    return *this;
  }
  friend bool operator==(const Wide& a, const Wide& b) {
    for (int i = 0; i < W; ++i)
      if (a.w[i] != b.w[i]) return false;
    return true;
  }
};

// The bitboard operations the compiler and the generator use, for every bitboard type.
namespace bb {
template <class BB>
constexpr int kSquares = 64;
template <int W>
constexpr int kSquares<Wide<W>> = 64 * W;

inline uint64_t bit(uint64_t*, int s) {
  return uint64_t(1) << s;
}
inline bool test(uint64_t b, int s) {
  return (b >> s) & 1;
}
inline void set(uint64_t& b, int s) {
  b |= uint64_t(1) << s;
}
inline int lsb(uint64_t b) {
  return __builtin_ctzll(b);
}
inline int msb(uint64_t b) {
  return 63 - __builtin_clzll(b);
}
inline void clear_lsb(uint64_t& b) {
  b &= b - 1;
}
inline int popcount(uint64_t b) {
  return __builtin_popcountll(b);
}

template <int W>
inline Wide<W> bit(Wide<W>*, int s) {
  Wide<W> r;
  r.w[s >> 6] = uint64_t(1) << (s & 63);
  return r;
}
template <int W>
inline bool test(const Wide<W>& b, int s) {
  return (b.w[s >> 6] >> (s & 63)) & 1;
}
template <int W>
inline void set(Wide<W>& b, int s) {
  b.w[s >> 6] |= uint64_t(1) << (s & 63);
}
template <int W>
inline int lsb(const Wide<W>& b) {
  for (int i = 0; i < W - 1; ++i)
    if (b.w[i]) return 64 * i + __builtin_ctzll(b.w[i]);
  return 64 * (W - 1) + __builtin_ctzll(b.w[W - 1]);
}
template <int W>
inline int msb(const Wide<W>& b) {
  for (int i = W - 1; i > 0; --i)
    if (b.w[i]) return 64 * i + 63 - __builtin_clzll(b.w[i]);
  return 63 - __builtin_clzll(b.w[0]);
}
template <int W>
inline void clear_lsb(Wide<W>& b) {
  for (int i = 0; i < W; ++i)
    if (b.w[i]) {
      b.w[i] &= b.w[i] - 1;
      return;
    }
}
template <int W>
inline int popcount(const Wide<W>& b) {
  int n = 0;
  for (int i = 0; i < W; ++i) n += __builtin_popcountll(b.w[i]);
  return n;
}
// bit<BB>(s): the bitboard of square s alone.
template <class BB>
inline BB bit(int s) {
  return bit(static_cast<BB*>(nullptr), s);
}
}  // namespace bb

// One piece type's per-square tables on bitboard type BB.
template <class BB>
struct PieceTables {
  static constexpr int N = bb::kSquares<BB>;
  std::array<std::array<BB, N>, 2> leap_move{};          // non-capturing leaps
  std::array<std::array<BB, N>, 2> leap_capture{};       // capturing leaps
  std::array<std::array<BB, N>, 2> leap_capture_from{};  // reverse of leap_capture
  std::array<std::array<BB, N>, 2> ep_capture{};         // leaps that may capture en passant
  struct Lame {
    int to;
    BB path;  // the squares passed over
  };
  std::array<std::array<std::vector<Lame>, N>, 2> initial_lame{};
  std::array<uint8_t, 2> ride_move{};  // copies of the program's, next to the tables
  std::array<uint8_t, 2> ride_capture{};
  // Attacks on a royal piece (check): leap_capture_from and ride_capture of the pieces
  // that give check; empty for the others (`no-check`, `captures non-royal|none`).
  std::array<std::array<BB, N>, 2> check_from{};
  std::array<uint8_t, 2> ride_check{};
  std::array<std::array<BB, N>, 2> region_move{};  // `region-move` leaps
  BB teleport_to[2] = {};                          // where `teleport` may land
  std::array<std::array<BB, N>, 2> own_capture{};  // Betza `d` leaps
  std::array<BB, N> near{};                        // squares within `captured-by ... within` of each square
  std::array<BB, N> rampage_near{};                // squares within `enemy-self-beyond` of each square
  std::array<BB, N> around{};   // squares within `remove-around radius` (the square excluded)
  std::array<BB, N> lenders{};  // the squares `borrows` looks at
  // PieceProgram::paths, per colour and square: each a run of squares (into walk_sq) with
  // the squares a lame leap passes (`block`). walk_from[c][s]: the squares from which one
  // of them can capture on s on an empty board (the candidates attack detection walks).
  struct Walk {
    uint32_t first, len;
    BB block;
    bool move, capture;
    char hop;
  };
  std::array<std::array<std::vector<Walk>, N>, 2> walks{};
  std::vector<int16_t> walk_sq;
  std::array<std::array<BB, N>, 2> walk_from{};
  bool special = false;  // teleport or region moves
  // A leap of two or more squares along a rank, file or diagonal (the alfil's, the
  // dabbaba's): pinned, it may jump over the pinner onto the pin's line beyond it.
  bool line_jumps = false;
  BB promote_zone[2] = {};
  BB forbidden_zone[2] = {};
  BB immobile[2] = {};  // squares from which it has no move on the empty board
};

// The board's tables on bitboard type BB: the smallest of uint64_t (up to 64 squares),
// Wide<2> (128) and Wide<4> (256) that holds the board. Squares are y * width + x.
template <class BB>
struct BoardTables {
  static constexpr int N = bb::kSquares<BB>;
  std::vector<PieceTables<BB>> pieces;
  // ray[d][sq]: squares from sq (exclusive) in unit direction d to the edge.
  std::array<std::array<BB, N>, 8> ray{};
  std::array<BB, N> adjacent{};  // the 8 neighbours of each square
  // dir[a][b]: the unit direction from a to b when they share a line, else -1. Lines and
  // the squares between two squares come from it and the rays (a square table of
  // bitboards would take 4 MB at 256 squares).
  std::array<std::array<int8_t, N>, N> dir{};
  BB board_mask{};
  BB place_zone[2] = {};
  BB enemy_half[2] = {};  // the ranks of the opponent's half, per colour (midline invasion)
  BB flag_zone[2] = {};   // `region-reached`'s region, per colour
  BB opening[2] = {};     // `encloses opening REGION`, per colour (gen_flip.hpp)

  // Strictly between a and b when they share a line, else empty.
  BB between(int a, int b) const {
    int d = dir[a][b];
    return d < 0 ? BB{} : ray[d][a] & ray[(d + 4) & 7][b];
  }
  // The full line through a and b when they share one, else empty.
  BB line(int a, int b) const {
    int d = dir[a][b];
    return d < 0 ? BB{} : ray[d][a] | ray[(d + 4) & 7][a] | bb::bit<BB>(a);
  }
};

}  // namespace arb::lang
