// Magic bitboards for the rides of the 8x8 board (issue 25): the squares a rook-like
// (the four orthogonal directions) or bishop-like (the four diagonal ones) rider reaches
// from a square, stopping at and including the first occupied square, by one multiply
// and one table read instead of a loop over the directions.
//
// The magic numbers are found at first use by a seeded search (a few milliseconds, the
// same numbers every run), and every table entry is checked against the ray walk it
// replaces while it is filled. The generator uses these tables only when its board is
// the plain 8x8 board: the program's rays are verified equal to the geometric ones
// (Generator::setup_sliders), so a board with holes or another size keeps its ray loop.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace arb::lang::magic {

struct Entry {
  uint64_t mask = 0;  // the relevant occupancy: the rays without their last square
  uint64_t mult = 0;
  const uint64_t* table = nullptr;
  unsigned shift = 0;
  uint64_t attacks(uint64_t occ) const { return table[((occ & mask) * mult) >> shift]; }
};

struct Tables {
  Entry rook[64], bishop[64];
  std::vector<uint64_t> data;
};

// The squares reached from s along the given unit steps, each ray stopping at the first
// square of `occ` (included).
inline uint64_t walk(int s, uint64_t occ, const int (*steps)[2]) {
  uint64_t r = 0;
  for (int i = 0; i < 4; ++i) {
    int x = s % 8 + steps[i][0], y = s / 8 + steps[i][1];
    for (; x >= 0 && x < 8 && y >= 0 && y < 8; x += steps[i][0], y += steps[i][1]) {
      r |= uint64_t{1} << (y * 8 + x);
      if (occ >> (y * 8 + x) & 1) break;
    }
  }
  return r;
}

// The rays from s without their last square (an occupant there changes nothing).
inline uint64_t relevant(int s, const int (*steps)[2]) {
  uint64_t r = 0;
  for (int i = 0; i < 4; ++i) {
    int x = s % 8 + steps[i][0], y = s / 8 + steps[i][1];
    for (; x + steps[i][0] >= 0 && x + steps[i][0] < 8 && y + steps[i][1] >= 0 && y + steps[i][1] < 8;
         x += steps[i][0], y += steps[i][1])
      r |= uint64_t{1} << (y * 8 + x);
  }
  return r;
}

// Finds a magic for one square and fills its slice of `data` (starting at `at`).
inline void fill(Entry& e, int s, const int (*steps)[2], std::vector<uint64_t>& data, size_t at,
                 uint64_t& seed, uint64_t hint) {
  auto next = [&seed] {  // xorshift64*
    seed ^= seed >> 12;
    seed ^= seed << 25;
    seed ^= seed >> 27;
    return seed * 2685821657736338717ull;
  };
  e.mask = relevant(s, steps);
  const int bits = __builtin_popcountll(e.mask);
  const size_t size = size_t{1} << bits;
  std::vector<uint64_t> occs(size), atts(size);
  size_t n = 0;
  uint64_t sub = 0;
  do {  // every subset of the mask (carry-rippler)
    occs[n] = sub;
    atts[n++] = walk(s, sub, steps);
    sub = (sub - e.mask) & e.mask;
  } while (sub);
  e.shift = 64 - static_cast<unsigned>(bits);
  std::vector<int> epoch(size, 0);
  for (int attempt = 1;; ++attempt) {
    // The known magic first (kRookMagic, kBishopMagic), then sparse random candidates.
    const uint64_t m = attempt == 1 ? hint : next() & next() & next();
    if (attempt > 1 && __builtin_popcountll((e.mask * m) >> 56) < 6) continue;
    bool ok = true;
    for (size_t i = 0; i < size && ok; ++i) {
      const size_t idx = ((occs[i] & e.mask) * m) >> e.shift;
      if (epoch[idx] != attempt) {
        epoch[idx] = attempt;
        data[at + idx] = atts[i];
      } else if (data[at + idx] != atts[i]) {
        ok = false;
      }
    }
    if (ok) {
      e.mult = m;
      return;
    }
  }
}

inline Tables build() {
  // The result of this search for each square, from an earlier run (a hint: fill() checks
  // it and searches again if it does not hold).
  static constexpr uint64_t kRookMagic[64] = {
      0x1080004008801020ull, 0x0840092002c03000ull, 0x1900200010400900ull, 0x0880100008000480ull,
      0x4200100420080200ull, 0x8100020100080400ull, 0x0200040110886200ull, 0x0200008040220411ull,
      0x0404800084400220ull, 0x0000401000402000ull, 0x0086001081220440ull, 0x0408800800100280ull,
      0x000a001201040820ull, 0x8848800200840080ull, 0x4001000100040200ull, 0x0442000102105084ull,
      0x9080010020804100ull, 0x0040404000201009ull, 0x0000808010002009ull, 0x2200090021d00100ull,
      0x0008008008040080ull, 0x0004004002010040ull, 0x0011040008015042ull, 0x00000a0001768104ull,
      0x0000800080204009ull, 0x2010004140002001ull, 0x9800200280100080ull, 0x1000100080080080ull,
      0x0442000a00049020ull, 0x2100040080020080ull, 0x0800120400900148ull, 0x0010040a00128541ull,
      0x2800804000800030ull, 0x1010002000400041ull, 0x4000200011004100ull, 0x0610008410800800ull,
      0x0400802402800800ull, 0xc100020080800400ull, 0x0002000802000401ull, 0x0182085882000401ull,
      0x0220204000808000ull, 0x2860100040024022ull, 0x0001002004110040ull, 0x99101042000a0020ull,
      0x0004080004008080ull, 0x0010040002008080ull, 0x2012004881020004ull, 0x8300842444820011ull,
      0x0088403882010200ull, 0x0820400080210100ull, 0x0110910040a00300ull, 0x0801100280080480ull,
      0x0242009008200600ull, 0x1002000489500200ull, 0x0040800200010080ull, 0x0091800041000080ull,
      0x0000209300488001ull, 0x04c1002414824001ull, 0x020020000b001041ull, 0x7000100004200901ull,
      0x8002002004100802ull, 0x30010002084c0007ull, 0x0888221800813004ull, 0x4000002840840112ull,
  };
  static constexpr uint64_t kBishopMagic[64] = {
      0xa010041108003100ull, 0x006082020a002900ull, 0x6810010619200000ull, 0x08281a0520000408ull,
      0x0001104001000400ull, 0x0018901008048400ull, 0x00040a0210245280ull, 0x000200210808a402ull,
      0x9140048410821200ull, 0x0800091010820041ull, 0x20504804832202c0ull, 0x0100091401081000ull,
      0x8021011140000012ull, 0x0810020804450400ull, 0x208b0542109008a2ull, 0x0080084a08040204ull,
      0x0040e2a80811244cull, 0x2505022008008108ull, 0x0430220100420040ull, 0x010a040420220040ull,
      0x1105000290400000ull, 0x0093001200822120ull, 0x4000a62048043004ull, 0x280120048a015004ull,
      0x006090002a020814ull, 0x44042000240800d0ull, 0x01102800040a4400ull, 0x1004080080220040ull,
      0x0001001011004024ull, 0x0010044000805040ull, 0x0914041200820100ull, 0x0004821012821480ull,
      0x0024040500c05021ull, 0x0088611002080200ull, 0x0116080a00040020ull, 0x4000020080080080ull,
      0x2450450140840040ull, 0x0000880201484100ull, 0x0222020404020092ull, 0x8081110600002e00ull,
      0x2842101105000801ull, 0x1100809008001025ull, 0x00020202221c0400ull, 0x0422014022009020ull,
      0x0210046102100c00ull, 0xc004008082029102ull, 0x00aa461801101200ull, 0x0404080080201108ull,
      0x020542108c205002ull, 0x0410544804100100ull, 0x0040910841100000ull, 0x0400200042021100ull,
      0x00004204850400c0ull, 0x0200100410a42102ull, 0x1040020801210102ull, 0x0805040410420000ull,
      0x2884804130100200ull, 0x800c262201242000ull, 0x1058000194108800ull, 0x0014221054420204ull,
      0x0104000012a02200ull, 0x0200881003300100ull, 0x0140400202840100ull, 0x0402020801010201ull,
  };
  static constexpr int kRook[4][2] = {{0, 1}, {1, 0}, {0, -1}, {-1, 0}};
  static constexpr int kBishop[4][2] = {{1, 1}, {1, -1}, {-1, -1}, {-1, 1}};
  Tables t;
  size_t total = 0;
  size_t offset[2][64];
  for (int s = 0; s < 64; ++s) {
    offset[0][s] = total;
    total += size_t{1} << __builtin_popcountll(relevant(s, kRook));
  }
  for (int s = 0; s < 64; ++s) {
    offset[1][s] = total;
    total += size_t{1} << __builtin_popcountll(relevant(s, kBishop));
  }
  t.data.assign(total, 0);
  uint64_t seed = 0x9E3779B97F4A7C15ull;
  for (int s = 0; s < 64; ++s) fill(t.rook[s], s, kRook, t.data, offset[0][s], seed, kRookMagic[s]);
  for (int s = 0; s < 64; ++s) fill(t.bishop[s], s, kBishop, t.data, offset[1][s], seed, kBishopMagic[s]);
  for (int s = 0; s < 64; ++s) {
    t.rook[s].table = t.data.data() + offset[0][s];
    t.bishop[s].table = t.data.data() + offset[1][s];
  }
  return t;
}

// The tables, built once (thread-safe) at the first use.
inline const Tables& tables() {
  static const Tables t = build();
  return t;
}

}  // namespace arb::lang::magic
