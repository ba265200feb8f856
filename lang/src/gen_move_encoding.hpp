// The compiled generator's move encoding, position keys and undo record (generator_impl.hpp).
#pragma once

#include <array>
#include <cstdint>

#include "arbiter/lang/bitboard.hpp"
#include "arbiter/random.hpp"

namespace arb::lang {

namespace {

using Move = uint32_t;
enum Kind : uint32_t { kNormal = 0, kDouble, kEnPassant, kCastleK, kCastleQ, kPromote, kPlace, kNull };

// 8-bit squares (up to 256), 3-bit kind, 4-bit type.
constexpr Move make_move(int from, int to, uint32_t kind, int type = 0) {
  return static_cast<Move>(from) | (static_cast<Move>(to) << 8) | (kind << 16) |
         (static_cast<Move>(type) << 19);
}
constexpr int from_of(Move m) {
  return m & 255;
}
constexpr int to_of(Move m) {
  return (m >> 8) & 255;
}
constexpr uint32_t kind_of(Move m) {
  return (m >> 16) & 7;
}
constexpr int type_of(Move m) {
  return (m >> 19) & 15;
}
// A kNormal move's type field names the actions that are no plain move (RULINGS 4.10):
// a rampage (the mover runs to `to`, removing every piece on the way) and a strike (the
// mover stays and removes the piece on `to`).
constexpr int kSubRampage = 1, kSubStrike = 2, kSubWhirl = 3;  // a whirlwind: from == to
constexpr int sub_of(Move m) {
  return kind_of(m) == kNormal ? type_of(m) : 0;
}
// A move's second part, the wall it places (`walls placed`, section "walls"): bit 23 set,
// the wall's square in bits 24..31. Moves of programs without placed walls never set them.
constexpr Move with_wall(Move m, int q) {
  return m | (1u << 23) | (static_cast<Move>(q) << 24);
}
constexpr bool has_wall(Move m) {
  return (m >> 23) & 1;
}
constexpr int wall_of(Move m) {
  return static_cast<int>(m >> 24);
}

using bb::clear_lsb;
using bb::lsb;
using bb::msb;
using bb::popcount;
using bb::test;

// Keys for N squares. The sequence is the same for every N, so boards of up to 64 squares
// hash as they always have.
template <int N>
struct Zobrist {
  uint64_t psq[2][kMaxTypes][N];
  uint64_t side;
  uint64_t castle[16];
  uint64_t ep[N];
  uint64_t reserve[2][kMaxTypes][33];
  uint64_t promoted[N];  // a piece standing promoted (`captures-to-hand`: FEN `Q~`)
  uint64_t wall[N];      // a wall square (`walls`: FEN `*`)
  Zobrist() {
    uint64_t s = 0x243F6A8885A308D3ull;
    auto next = [&]() { return splitmix64_next(s); };
    for (auto& a : psq)
      for (auto& b : a)
        for (auto& c : b) c = next();
    side = next();
    for (auto& c : castle) c = next();
    for (auto& e : ep) e = next();
    for (auto& a : reserve)
      for (auto& b : a)
        for (auto& c : b) c = next();
    for (auto& p : promoted) p = next();
    for (auto& w : wall) w = next();
  }
};
template <int N>
const Zobrist<N>& zob() {
  static const Zobrist<N> z;
  return z;
}
// The key of colour c holding n pieces of type t in reserve: the table's up to 32, a mix
// beyond (Reversi's hands hold up to 128).
template <int N>
uint64_t reserve_key(const Zobrist<N>& z, int c, int t, int n) {
  if (n <= 32) return z.reserve[c][t][n];
  return splitmix64_mix(0xD6E8FEB86659FD93ull * static_cast<uint64_t>((c * kMaxTypes + t) * 512 + n + 1));
}

struct Undo {
  Move move;
  int8_t moved;     // code of the piece that moved, or -1 for a placement
  int8_t captured;  // piece code or -1
  int16_t ep, ep_victim;
  uint8_t castling;
  int halfmove;
  int fullmove;
  uint64_t hash;
  // The turn layer: whether this step ended the turn (the side changed), and the double
  // step a first step left pending for the end of the turn.
  bool ends_turn = true;
  int16_t pending_passed = -1, pending_victim = -1;
  uint8_t nremoved = 0;                 // entries this step pushed on Generator::removed_ (rampage, strike)
  bool captured_promoted = false;       // `captures-to-hand`: the victim stood promoted
  bool mover_promoted = false;          // `captures-to-hand`: the mover stood promoted
  std::array<int8_t, 2> checks_left{};  // `checks N -> win`: the counter before the step
  int16_t wall_taken = -1;              // `walls placed duck`: where the wall stood before
  bool petrified = false;               // `petrify`: the capturer turned into a wall
};

}  // namespace

}  // namespace arb::lang
