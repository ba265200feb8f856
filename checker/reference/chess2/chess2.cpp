// Reference engine for Chess 2 (six armies, midline invasion; the version without duels),
// written from ../shared/rules/chess2.txt and RULINGS.md (introduction, sections 0 and 4)
// alone. It shares no move logic with lang/ or with the other reference engines.
//
// Options: `white-army` and `black-army`, each one of classic, nemesis, empowered, reaper,
// two-kings, animals (default classic).
//
// Position text: FEN with the piece letters of RULINGS 4.1, upper case White:
//   K Q R B N P   classic king, queen, rook, bishop, knight, pawn (K is the king of every
//                 army but Two Kings; R B N also in Nemesis, Reaper (B N), Two Kings)
//   M L           nemesis, nemesis pawn
//   O X Y Z       empowered queen, bishop, knight, rook
//   A G           reaper, ghost
//   W             warrior king (Two Kings: one or two of them)
//   E H T J       elephant, wild horse, tiger, jungle queen
// Every piece must belong to its side's army (PositionError with the column of the
// letter). Castling field: KQkq, X-FEN or Shredder-FEN, only for a Classic side (written
// back in X-FEN). En-passant field: written (and hashed) only when an en-passant capture is
// legal for the side to move. Halfmove clock: complete turns since the last pawn move or
// removal of a piece (RULINGS 4.12); fullmove number as in chess. A position is taken at
// the start of a turn (never between a normal action and its king-turn). The side that just
// moved must not be in check. Pawns never stand on their last rank; a pawn other than a
// nemesis pawn never stands on its own first rank (a nemesis pawn can step back there).
//
// `start` is the classic start rnbqkbnr with each army's substitutions (RULINGS 4.2);
// `start:N` (N in 0..959, standard Chess960 numbering, 518 = classic) the same from that
// Chess960 back rank, mirrored for Black, with full castling rights for a Classic side.
//
// Actions: one action is one complete turn: the normal action, then for a Two Kings side
// the optional king-turn (a second step, phase 1). A game that is over (the side
// that just moved has all its kings across the midline) has no legal actions.
//
// Board: 64 squares, index = rank index * 8 + file (rank index 0 = rank 1). Positions are
// small values; a move is tried on a copy and kept when every royal of the mover is safe.
#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "arbiter/fen.hpp"
#include "reference.hpp"

namespace arb::ref {
namespace {

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
char upper_letter(int t) {
  return kLetters[t];
}
char fen_letter(Piece p) {
  char c = kLetters[type_of(p)];
  return color_of(p) == kWhite ? c : static_cast<char>(c - 'A' + 'a');
}
int type_of_letter(char up) {
  for (int t = 1; t < kTypeCount; ++t)
    if (kLetters[t] == up) return t;
  return kNone;
}
bool is_pawn_type(int t) {
  return t == kPawn || t == kNemesisPawn;
}
// Empowered movement bits: 1 knight, 2 bishop, 4 rook.
int empowered_base(int t) {
  return t == kEKnight ? 1 : t == kEBishop ? 2 : t == kERook ? 4 : 0;
}

// ---------------------------------------------------------------------------------------
// Squares.

int file_of(int s) {
  return s & 7;
}
int rank_of(int s) {
  return s >> 3;
}
int shift(int s, int dx, int dy) {
  int x = file_of(s) + dx, y = rank_of(s) + dy;
  return (x < 0 || x > 7 || y < 0 || y > 7) ? -1 : y * 8 + x;
}
int chebyshev(int a, int b) {
  return std::max(std::abs(file_of(a) - file_of(b)), std::abs(rank_of(a) - rank_of(b)));
}
Coord to_coord(int s) {
  return Coord{file_of(s), rank_of(s) + 1};
}
int forward(int color) {
  return color == kWhite ? 1 : -1;
}
int back_rank(int color) {
  return color == kWhite ? 0 : 7;
}
// Whether rank index `r` lies in the half of the board that belongs to `color`'s enemy.
bool across_midline(int color, int r) {
  return color == kWhite ? r >= 4 : r <= 3;
}
// How many steps fit on the board from `s` in direction (dx, dy), at most 3.
int reach3(int s, int dx, int dy) {
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

uint64_t pack(const Mv& m) {
  return static_cast<uint64_t>(m.from) | static_cast<uint64_t>(m.to) << 6 |
         static_cast<uint64_t>(m.kind) << 12 | static_cast<uint64_t>(m.promo) << 15;
}
Mv unpack(uint64_t v) {
  Mv m;
  m.from = static_cast<uint8_t>(v & 63);
  m.to = static_cast<uint8_t>((v >> 6) & 63);
  m.kind = static_cast<uint8_t>((v >> 12) & 7);
  m.promo = static_cast<uint8_t>((v >> 15) & 31);
  if (m.kind >= kKindCount || m.promo >= kTypeCount)
    throw std::invalid_argument("reference:chess2: malformed action");
  return m;
}
Action encode(const Turn& t) {
  Action a;
  a.lo = pack(t.first) | (t.has_second ? (pack(t.second) << 20 | 1ULL << 40) : 0);
  a.hi = kActionTag;
  return a;
}
Turn decode(const Action& a) {
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
const Zobrist& zobrist() {
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

// ---------------------------------------------------------------------------------------
// The rules, for a fixed pair of armies.

class Rules {
 public:
  explicit Rules(std::array<int, 2> armies) : army_(armies) {}
  int army(int color) const { return army_[color]; }

  // --- Empowered gains: the movement bits of the empowered piece on `s`.
  int empowered_bits(const Pos& p, int s) const {
    Piece pc = p.b[s];
    int bits = empowered_base(type_of(pc));
    if (!bits) return 0;
    for (Dir d : kOrth) {
      int q = shift(s, d.dx, d.dy);
      if (q < 0 || !p.b[q] || color_of(p.b[q]) != color_of(pc)) continue;
      bits |= empowered_base(type_of(p.b[q]));
    }
    return bits;
  }

  // Whether an elephant of colour `c` may remove `victim` at distance `dist` of its start
  // square on a rampage. `royal_target`: judging an attack on a royal (enemy kings count as
  // removable then; in play an enemy king is never on a rampage path).
  static bool rampage_removable(Piece victim, int c, int dist, bool royal_target) {
    int t = type_of(victim);
    if (t == kGhost || t == kNemesis) return false;
    if (is_royal_type(t)) return color_of(victim) != c && royal_target;
    if (t == kElephant && color_of(victim) != c && dist > 2) return false;
    return true;
  }

  // Whether a royal standing on `s` could be captured by a piece of colour `by`
  // (RULINGS 4.5). Whatever stands on `s` is taken to be that royal.
  bool attacked(const Pos& p, int s, int by) const {
    auto is_by = [&](int q, Piece& pc) {
      if (q < 0) return false;
      pc = p.b[q];
      return pc && color_of(pc) == by;
    };
    Piece pc;
    // Pawns (all kinds capture one square diagonally forward).
    for (int dx : {-1, 1})
      if (is_by(shift(s, dx, -forward(by)), pc) && is_pawn_type(type_of(pc))) return true;
    // Knight leaps.
    for (Dir d : kKnightDirs) {
      int q = shift(s, d.dx, d.dy);
      if (!is_by(q, pc)) continue;
      int t = type_of(pc);
      if (t == kKnight || t == kHorse || t == kJungle) return true;
      if (empowered_base(t) && (empowered_bits(p, q) & 1)) return true;
    }
    // Neighbours: kings, warrior kings (a move or a whirlwind), the empowered queen.
    for (Dir d : kKingDirs) {
      int q = shift(s, d.dx, d.dy);
      if (!is_by(q, pc)) continue;
      int t = type_of(pc);
      if (t == kKing || t == kWarrior || t == kEQueen) return true;
    }
    // Tigers: one or two squares diagonally, the square between empty.
    for (Dir d : kDiag) {
      int q = shift(s, d.dx, d.dy);
      if (q < 0) continue;
      if (p.b[q]) {
        if (color_of(p.b[q]) == by && type_of(p.b[q]) == kTiger) return true;
        continue;
      }
      int q2 = shift(q, d.dx, d.dy);
      if (is_by(q2, pc) && type_of(pc) == kTiger) return true;
    }
    // Sliders.
    for (int diag = 0; diag < 2; ++diag) {
      const auto& dirs = diag ? kDiag : kOrth;
      for (Dir d : dirs) {
        int q = shift(s, d.dx, d.dy);
        while (q >= 0 && !p.b[q]) q = shift(q, d.dx, d.dy);
        if (!is_by(q, pc)) continue;
        int t = type_of(pc);
        if (t == kQueen || t == kNemesis) return true;
        if (!diag && (t == kRook || t == kJungle)) return true;
        if (diag && t == kBishop) return true;
        if (empowered_base(t) && (empowered_bits(p, q) & (diag ? 2 : 4))) return true;
      }
    }
    // Elephants: `s` on the path of a possible rampage (RULINGS 4.10).
    for (Dir d : kOrth) {
      for (int k = 1; k <= 3; ++k) {
        int e = shift(s, d.dx * k, d.dy * k);
        if (e < 0) break;
        if (!is_by(e, pc) || type_of(pc) != kElephant) continue;
        int len = reach3(e, -d.dx, -d.dy);
        bool possible = true;
        for (int j = 1; j <= len && possible; ++j) {
          int q = shift(e, -d.dx * j, -d.dy * j);
          if (q == s || !p.b[q]) continue;
          possible = rampage_removable(p.b[q], by, j, true);
        }
        if (possible) return true;
      }
    }
    return false;
  }

  // Whether any royal of `color` is attacked.
  bool royal_attacked(const Pos& p, int color) const {
    for (int s = 0; s < 64; ++s) {
      Piece pc = p.b[s];
      if (pc && color_of(pc) == color && is_royal_type(type_of(pc)) && attacked(p, s, 1 - color)) return true;
    }
    return false;
  }

  // Whether `color` has all its kings on the enemy half (and at least one king).
  static bool all_kings_across(const Pos& p, int color) {
    bool any = false;
    for (int s = 0; s < 64; ++s) {
      Piece pc = p.b[s];
      if (!pc || color_of(pc) != color || !is_royal_type(type_of(pc))) continue;
      if (!across_midline(color, rank_of(s))) return false;
      any = true;
    }
    return any;
  }

  // The game is over: the side that just moved has all its kings across the midline.
  static bool over(const Pos& p) { return all_kings_across(p, 1 - p.side); }

  // --- Captures (other than rampages and whirlwinds): may the piece `mover` starting on
  // `from` capture what stands on `to`?
  static bool can_capture(const Pos& p, Piece mover, int from, int to) {
    Piece v = p.b[to];
    int vt = type_of(v), mt = type_of(mover);
    if (vt == kGhost || is_royal_type(vt)) return false;  // a king is never left en prise
    if (color_of(v) == color_of(mover)) return mt == kHorse;
    if (vt == kNemesis && !is_royal_type(mt)) return false;
    if (vt == kElephant && chebyshev(from, to) > 2) return false;
    if (mt == kNemesis || mt == kGhost) return false;
    return true;
  }

  // --- Pseudo-legal steps.

  static void add(std::vector<Mv>& out, int from, int to, int kind, int promo = kNone) {
    out.push_back(Mv{static_cast<uint8_t>(from), static_cast<uint8_t>(to), static_cast<uint8_t>(kind),
                     static_cast<uint8_t>(promo)});
  }

  void add_pawn(std::vector<Mv>& out, int from, int to, int us) const {
    if (rank_of(to) == back_rank(1 - us)) {
      for (const char* c = kPromotions[army_[us]]; *c; ++c) add(out, from, to, kQuiet, type_of_letter(*c));
    } else {
      add(out, from, to, kQuiet);
    }
  }

  // Steps to `to` for a leaper or one slider step: empty, or a capture it may make.
  static bool try_target(const Pos& p, std::vector<Mv>& out, int from, int to, bool may_capture) {
    if (!p.b[to]) {
      add(out, from, to, kQuiet);
      return true;
    }
    if (may_capture && can_capture(p, p.b[from], from, to)) add(out, from, to, kQuiet);
    return false;
  }

  template <size_t N>
  static void leaps(const Pos& p, std::vector<Mv>& out, int from, const std::array<Dir, N>& dirs,
                    bool may_capture) {
    for (Dir d : dirs) {
      int q = shift(from, d.dx, d.dy);
      if (q >= 0) try_target(p, out, from, q, may_capture);
    }
  }

  static void rays(const Pos& p, std::vector<Mv>& out, int from, const std::array<Dir, 4>& dirs,
                   bool may_capture) {
    for (Dir d : dirs)
      for (int q = shift(from, d.dx, d.dy); q >= 0; q = shift(q, d.dx, d.dy))
        if (!try_target(p, out, from, q, may_capture)) break;
  }

  void pawn_steps(const Pos& p, std::vector<Mv>& out, int from, int us) const {
    int t = type_of(p.b[from]);
    int fw = forward(us);
    int one = shift(from, 0, fw);
    if (one >= 0 && !p.b[one]) {
      add_pawn(out, from, one, us);
      int two = shift(one, 0, fw);
      if (t == kPawn && rank_of(from) == back_rank(us) + fw && two >= 0 && !p.b[two])
        add(out, from, two, kDouble);
    }
    for (int dx : {-1, 1}) {
      int q = shift(from, dx, fw);
      if (q < 0) continue;
      if (p.b[q]) {
        if (color_of(p.b[q]) != us && can_capture(p, p.b[from], from, q)) add_pawn(out, from, q, us);
      } else if (q == p.ep) {
        add(out, from, q, kEnPassant);
      }
    }
    if (t != kNemesisPawn) return;
    // Nemesis moves: one step to an empty square inside the rectangle of the pawn and an
    // enemy king (either warrior king); the plain forward step is not repeated.
    uint64_t seen = 0;
    for (int k = 0; k < 64; ++k) {
      Piece kp = p.b[k];
      if (!kp || color_of(kp) == us || !is_royal_type(type_of(kp))) continue;
      int x0 = std::min(file_of(from), file_of(k)), x1 = std::max(file_of(from), file_of(k));
      int y0 = std::min(rank_of(from), rank_of(k)), y1 = std::max(rank_of(from), rank_of(k));
      for (Dir d : kKingDirs) {
        int q = shift(from, d.dx, d.dy);
        if (q < 0 || p.b[q] || q == one) continue;
        if (file_of(q) < x0 || file_of(q) > x1 || rank_of(q) < y0 || rank_of(q) > y1) continue;
        if (seen & (1ULL << q)) continue;
        seen |= 1ULL << q;
        add_pawn(out, from, q, us);
      }
    }
  }

  void elephant_steps(const Pos& p, std::vector<Mv>& out, int from, int us) const {
    for (Dir d : kOrth) {
      int len = reach3(from, d.dx, d.dy);
      bool any = false, possible = true;
      for (int j = 1; j <= len; ++j) {
        int q = shift(from, d.dx * j, d.dy * j);
        if (!p.b[q]) {
          if (!any) add(out, from, q, kQuiet);
          continue;
        }
        any = true;
        if (!rampage_removable(p.b[q], us, j, false)) possible = false;
      }
      if (any && possible) add(out, from, shift(from, d.dx * len, d.dy * len), kRampage);
    }
  }

  void tiger_steps(const Pos& p, std::vector<Mv>& out, int from) const {
    for (Dir d : kDiag) {
      int q = shift(from, d.dx, d.dy);
      if (q < 0) continue;
      if (p.b[q]) {
        if (color_of(p.b[q]) != color_of(p.b[from]) && can_capture(p, p.b[from], from, q))
          add(out, from, q, kStrike);
        continue;
      }
      add(out, from, q, kQuiet);
      int q2 = shift(q, d.dx, d.dy);
      if (q2 < 0) continue;
      if (!p.b[q2])
        add(out, from, q2, kQuiet);
      else if (color_of(p.b[q2]) != color_of(p.b[from]) && can_capture(p, p.b[from], from, q2))
        add(out, from, q2, kStrike);
    }
  }

  void whirlwind(const Pos& p, std::vector<Mv>& out, int from, int us) const {
    bool any = false;
    for (Dir d : kKingDirs) {
      int q = shift(from, d.dx, d.dy);
      if (q < 0 || !p.b[q]) continue;
      Piece v = p.b[q];
      if (color_of(v) == us && type_of(v) == kWarrior) return;  // the other warrior king is adjacent
      if (type_of(v) != kGhost) any = true;
    }
    if (any) add(out, from, from, kWhirl);
  }

  void castling(const Pos& p, std::vector<Mv>& out, int king, int us) const {
    for (int side : {kKingSide, kQueenSide}) {
      int rf = p.rook_file[us][side];
      if (rf < 0) continue;
      int rank = back_rank(us);
      int rook = rank * 8 + rf;
      int king_to = rank * 8 + (side == kKingSide ? 6 : 2);
      int rook_to = rank * 8 + (side == kKingSide ? 5 : 3);
      auto clear = [&](int a, int b) {
        for (int s = std::min(a, b); s <= std::max(a, b); ++s)
          if (s != king && s != rook && p.b[s]) return false;
        return true;
      };
      if (!clear(king, king_to) || !clear(rook, rook_to)) continue;
      Pos q = p;
      q.b[rook] = 0;
      Piece k = q.b[king];
      q.b[king] = 0;
      bool safe = true;
      for (int s = std::min(king, king_to); s <= std::max(king, king_to) && safe; ++s) {
        q.b[s] = k;
        if (attacked(q, s, 1 - us)) safe = false;
        q.b[s] = 0;
      }
      if (safe) add(out, king, rook, kCastle);
    }
  }

  // Pseudo-legal steps of the normal action of the side to move.
  void normal_steps(const Pos& p, std::vector<Mv>& out) const {
    int us = p.side;
    for (int s = 0; s < 64; ++s) {
      Piece pc = p.b[s];
      if (!pc || color_of(pc) != us) continue;
      switch (type_of(pc)) {
        case kPawn:
        case kNemesisPawn:
          pawn_steps(p, out, s, us);
          break;
        case kKnight:
        case kHorse:
          leaps(p, out, s, kKnightDirs, true);
          break;
        case kBishop:
          rays(p, out, s, kDiag, true);
          break;
        case kRook:
          rays(p, out, s, kOrth, true);
          break;
        case kQueen:
          rays(p, out, s, kDiag, true);
          rays(p, out, s, kOrth, true);
          break;
        case kNemesis:
          rays(p, out, s, kDiag, false);
          rays(p, out, s, kOrth, false);
          break;
        case kJungle:
          rays(p, out, s, kOrth, true);
          leaps(p, out, s, kKnightDirs, true);
          break;
        case kEBishop:
        case kEKnight:
        case kERook: {
          int bits = empowered_bits(p, s);
          if (bits & 1) leaps(p, out, s, kKnightDirs, true);
          if (bits & 2) rays(p, out, s, kDiag, true);
          if (bits & 4) rays(p, out, s, kOrth, true);
          break;
        }
        case kEQueen:
          leaps(p, out, s, kKingDirs, true);
          break;
        case kKing:
          leaps(p, out, s, kKingDirs, true);
          if (army_[us] == kClassicArmy) castling(p, out, s, us);
          break;
        case kWarrior:
          leaps(p, out, s, kKingDirs, true);
          whirlwind(p, out, s, us);
          break;
        case kReaper:
          for (int q = 0; q < 64; ++q) {
            if (rank_of(q) == back_rank(1 - us)) continue;
            if (!p.b[q] || (color_of(p.b[q]) != us && can_capture(p, pc, s, q))) add(out, s, q, kQuiet);
          }
          break;
        case kGhost:
          for (int q = 0; q < 64; ++q)
            if (!p.b[q]) add(out, s, q, kQuiet);
          break;
        case kElephant:
          elephant_steps(p, out, s, us);
          break;
        case kTiger:
          tiger_steps(p, out, s);
          break;
        default:
          break;
      }
    }
  }

  // Pseudo-legal steps of a king-turn: a warrior king's move or whirlwind.
  void king_turn_steps(const Pos& p, std::vector<Mv>& out) const {
    for (int s = 0; s < 64; ++s) {
      Piece pc = p.b[s];
      if (!pc || color_of(pc) != p.side || type_of(pc) != kWarrior) continue;
      leaps(p, out, s, kKingDirs, true);
      whirlwind(p, out, s, p.side);
    }
  }

  // --- Playing a step on the board (the side to move stays). `king_turn`: the step is a
  // king-turn, which keeps the en-passant square of the normal action.
  void play(Pos& p, const Mv& m, bool king_turn, StepResult* r) const {
    int us = p.side;
    Piece mover = p.b[m.from];
    auto remove = [&](int s) {
      if (r) r->removed.emplace_back(s, p.b[s]);
      p.b[s] = 0;
    };
    if (!king_turn) p.ep = -1;
    if (r && is_pawn_type(type_of(mover)) && m.kind != kWhirl && m.kind != kStrike) r->pawn_moved = true;
    switch (m.kind) {
      case kQuiet:
      case kDouble:
        if (p.b[m.to]) remove(m.to);
        p.b[m.to] = m.promo ? make_piece(us, m.promo) : mover;
        p.b[m.from] = 0;
        if (m.kind == kDouble) p.ep = shift(m.from, 0, forward(us));
        break;
      case kEnPassant:
        remove(rank_of(m.from) * 8 + file_of(m.to));
        p.b[m.to] = mover;
        p.b[m.from] = 0;
        break;
      case kCastle: {
        int side = file_of(m.to) > file_of(m.from) ? kKingSide : kQueenSide;
        Piece rook = p.b[m.to];
        p.b[m.from] = 0;
        p.b[m.to] = 0;
        int rank = rank_of(m.from);
        p.b[rank * 8 + (side == kKingSide ? 6 : 2)] = mover;
        p.b[rank * 8 + (side == kKingSide ? 5 : 3)] = rook;
        break;
      }
      case kRampage: {
        int dx = (file_of(m.to) > file_of(m.from)) - (file_of(m.to) < file_of(m.from));
        int dy = (rank_of(m.to) > rank_of(m.from)) - (rank_of(m.to) < rank_of(m.from));
        for (int q = shift(m.from, dx, dy);; q = shift(q, dx, dy)) {
          if (p.b[q]) remove(q);
          if (q == m.to) break;
        }
        p.b[m.to] = mover;
        p.b[m.from] = 0;
        break;
      }
      case kWhirl: {
        // Victims in square order (a1, b1, ..., h8): the rules remove them all at once.
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            int q = shift(m.from, dx, dy);
            if ((dx || dy) && q >= 0 && p.b[q] && type_of(p.b[q]) != kGhost) remove(q);
          }
        break;
      }
      case kStrike:
        remove(m.to);
        break;
      default:
        break;
    }
    // Castling rights: lost when the king moves, and when a castling rook is no longer on
    // its square (moved, captured, trampled, whirled, struck).
    if (type_of(mover) == kKing && m.kind != kWhirl && m.kind != kStrike) p.rook_file[us] = {-1, -1};
    for (int c : {kWhite, kBlack})
      for (int side : {kKingSide, kQueenSide}) {
        int f = p.rook_file[c][side];
        if (f >= 0 && p.b[back_rank(c) * 8 + f] != make_piece(c, kRook)) p.rook_file[c][side] = -1;
      }
  }

  bool legal_after(const Pos& p, const Mv& m, bool king_turn) const {
    Pos q = p;
    play(q, m, king_turn, nullptr);
    return !royal_attacked(q, p.side);
  }

  // Ends a turn: the en-passant square survives only while its pawn stands in front of
  // the empty skipped square and a capture onto it is legal; clocks; the other side moves.
  void finish(Pos& p, bool reset_clock) const {
    int us = p.side;
    if (p.ep >= 0) {
      int pawn = shift(p.ep, 0, forward(us));
      if (p.b[p.ep] || p.b[pawn] != make_piece(us, kPawn)) p.ep = -1;
    }
    p.halfmove = reset_clock ? 0 : std::min(p.halfmove, INT32_MAX - 1) + 1;
    if (us == kBlack && p.fullmove < INT32_MAX) ++p.fullmove;
    p.side = 1 - us;
    if (p.ep >= 0 && !ep_capture_legal(p)) p.ep = -1;
  }

  bool ep_capture_legal(const Pos& p) const {
    int us = p.side;
    for (int dx : {-1, 1}) {
      int from = shift(p.ep, dx, -forward(us));
      if (from < 0 || !p.b[from] || color_of(p.b[from]) != us || !is_pawn_type(type_of(p.b[from]))) continue;
      if (legal_after(p, Mv{static_cast<uint8_t>(from), static_cast<uint8_t>(p.ep), kEnPassant, kNone},
                      false))
        return true;
    }
    return false;
  }

  // --- Complete turns.

  void legal_turns(const Pos& p, std::vector<Turn>& out) const {
    out.clear();
    if (over(p)) return;
    std::vector<Mv> steps, kings;
    normal_steps(p, steps);
    for (const Mv& m : steps) {
      Pos q = p;
      play(q, m, false, nullptr);
      if (royal_attacked(q, p.side)) continue;
      out.push_back(Turn{m, false, {}});
      if (army_[p.side] != kTwoKingsArmy || all_kings_across(q, p.side)) continue;
      kings.clear();
      king_turn_steps(q, kings);
      for (const Mv& k : kings)
        if (legal_after(q, k, true)) out.push_back(Turn{m, true, k});
    }
  }

  // Plays a complete turn; returns what each step removed when `results` is given.
  void play_turn(Pos& p, const Turn& t, std::array<StepResult, 2>* results = nullptr) const {
    std::array<StepResult, 2> local;
    std::array<StepResult, 2>& r = results ? *results : local;
    play(p, t.first, false, &r[0]);
    if (t.has_second) play(p, t.second, true, &r[1]);
    bool reset = r[0].pawn_moved || !r[0].removed.empty() || !r[1].removed.empty();
    finish(p, reset);
  }

  uint64_t perft(const Pos& p, int depth) const {
    std::vector<Turn> turns;
    legal_turns(p, turns);
    if (depth == 1) return turns.size();
    uint64_t n = 0;
    for (const Turn& t : turns) {
      Pos q = p;
      play_turn(q, t);
      n += perft(q, depth - 1);
    }
    return n;
  }

 private:
  std::array<int, 2> army_;
};

// ---------------------------------------------------------------------------------------
// Start positions.

// The back rank (upper-case classic letters, files a-h) of Chess960 position `n`.
std::string chess960_back_rank(int n) {
  std::string r(8, ' ');
  r[(n % 4) * 2 + 1] = 'B';  // light-squared bishop: b, d, f or h
  n /= 4;
  r[(n % 4) * 2] = 'B';  // dark-squared bishop: a, c, e or g
  n /= 4;
  auto place_in_empty = [&r](int k, char c) {
    for (int x = 0; x < 8; ++x)
      if (r[x] == ' ' && k-- == 0) {
        r[x] = c;
        return;
      }
  };
  place_in_empty(n % 6, 'Q');
  n /= 6;
  static const int kKnights[10][2] = {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2},
                                      {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}};
  place_in_empty(kKnights[n][1], 'N');  // the later one first, so the earlier index holds
  place_in_empty(kKnights[n][0], 'N');
  place_in_empty(0, 'R');
  place_in_empty(0, 'K');
  place_in_empty(0, 'R');
  return r;
}

// A classic letter after the army's substitution (RULINGS 4.2).
char substitute(char c, int army) {
  switch (army) {
    case kNemesisArmy:
      return c == 'Q' ? 'M' : c == 'P' ? 'L' : c;
    case kEmpoweredArmy:
      return c == 'Q' ? 'O' : c == 'R' ? 'Z' : c == 'B' ? 'X' : c == 'N' ? 'Y' : c;
    case kReaperArmy:
      return c == 'Q' ? 'A' : c == 'R' ? 'G' : c;
    case kTwoKingsArmy:
      return c == 'Q' || c == 'K' ? 'W' : c;
    case kAnimalsArmy:
      return c == 'Q' ? 'J' : c == 'R' ? 'E' : c == 'B' ? 'T' : c == 'N' ? 'H' : c;
    default:
      return c;
  }
}

// ---------------------------------------------------------------------------------------
// The engine.

class Chess2Engine final : public Engine {
 public:
  explicit Chess2Engine(std::array<int, 2> armies) : rules_(armies) { set_position("start"); }

  std::string name() const override { return "reference:chess2"; }
  GameConfig config() const override {
    return GameConfig{
        "chess2",
        {{"black-army", kArmyNames[rules_.army(kBlack)]}, {"white-army", kArmyNames[rules_.army(kWhite)]}}};
  }

  void set_position(std::string_view text) override {
    Chess2Engine fresh(rules_, 0);
    fresh.load(text);
    *this = std::move(fresh);
  }

  std::string position() const override { return format_fen(fields(pos_)); }

  void legal_actions(std::vector<Action>& out) override {
    out.clear();
    std::vector<Turn> turns;
    rules_.legal_turns(pos_, turns);
    out.reserve(turns.size());
    for (const Turn& t : turns) out.push_back(encode(t));
  }

  void apply(const Action& a) override {
    Turn t = decode(a);
    Piece mover = pos_.b[t.first.from];
    if (!mover || color_of(mover) != pos_.side)
      throw std::invalid_argument("reference:chess2: action does not move a piece of the side to move");
    history_.push_back(pos_);
    rules_.play_turn(pos_, t);
    hashes_.push_back(compute_hash(pos_));
  }

  void undo() override {
    if (history_.empty()) throw std::logic_error("reference:chess2: undo with no action applied");
    pos_ = history_.back();
    history_.pop_back();
    hashes_.pop_back();
  }

  Status status() override {
    Status st;
    st.in_check = rules_.royal_attacked(pos_, pos_.side);
    auto win_for = [](int c) { return c == kWhite ? Result::WhiteWins : Result::BlackWins; };
    if (Rules::over(pos_)) {
      st.result = win_for(1 - pos_.side);
      st.end = Termination::RegionReached;
      st.reason = "midline-invasion";
    } else {
      std::vector<Turn> turns;
      rules_.legal_turns(pos_, turns);
      if (turns.empty()) {
        st.result = win_for(1 - pos_.side);
        st.end = st.in_check ? Termination::Checkmate : Termination::NoLegalMove;
        st.reason = st.in_check ? "checkmate" : "no-legal-move";
      }
    }
    st.claim_fifty = pos_.halfmove >= 100;
    st.claim_threefold = std::count(hashes_.begin(), hashes_.end(), hashes_.back()) >= 3;
    return st;
  }

  uint64_t hash() const override { return hashes_.back(); }
  Color side_to_move() const override { return pos_.side == kWhite ? Color::White : Color::Black; }

  ActionInfo describe(const Action& a) const override {
    Turn t = decode(a);
    ActionInfo info;
    Pos p = pos_;
    for (int i = 0; i < (t.has_second ? 2 : 1); ++i) {
      const Mv& m = i == 0 ? t.first : t.second;
      Piece mover = p.b[m.from];
      if (!mover || color_of(mover) != p.side)
        throw std::invalid_argument("reference:chess2: action does not move a piece of the side to move");
      Step s;
      s.kind = m.kind == kWhirl || m.kind == kStrike ? StepKind::Remove : StepKind::Move;
      s.piece = upper_letter(type_of(mover));
      s.from = to_coord(m.from);
      s.to = to_coord(m.to);
      s.promotion = m.promo ? upper_letter(m.promo) : 0;
      s.phase = static_cast<uint8_t>(i);  // 1: the optional king-turn (RULINGS 4.9)
      if (m.kind == kCastle) {
        bool king_side = file_of(m.to) > file_of(m.from);
        s.castle = king_side ? Castle::KingSide : Castle::QueenSide;
        s.king_to = to_coord(rank_of(m.from) * 8 + (king_side ? 6 : 2));
      }
      StepResult r;
      rules_.play(p, m, i == 1, &r);
      for (auto [sq, pc] : r.removed) s.removed.push_back(PieceAt{to_coord(sq), fen_letter(pc)});
      info.steps.push_back(s);
    }
    return info;
  }

  bool chess960() const override { return chess960_; }

  uint64_t perft(int depth) override {
    if (depth <= 0) return 1;
    return rules_.perft(pos_, depth);
  }

  std::unique_ptr<Engine> clone() const override { return std::make_unique<Chess2Engine>(*this); }

 private:
  Chess2Engine(const Rules& rules, int) : rules_(rules) {}

  [[noreturn]] static void reject(const std::string& msg, size_t col) { throw PositionError(msg, col); }

  // The FEN text of the start position from Chess960 back rank `n`.
  std::string start_text(int n) const {
    std::string rank = chess960_back_rank(n);
    std::string white, black, wp, bp;
    for (char c : rank) {
      white += substitute(c, rules_.army(kWhite));
      black += static_cast<char>(substitute(c, rules_.army(kBlack)) - 'A' + 'a');
      wp += substitute('P', rules_.army(kWhite));
      bp += static_cast<char>(substitute('P', rules_.army(kBlack)) - 'A' + 'a');
    }
    std::string castling;
    for (int c : {kWhite, kBlack}) {
      if (rules_.army(c) != kClassicArmy) continue;
      // Shredder letters: both rook files.
      for (int x = 7; x >= 0; --x)
        if (rank[x] == 'R') castling += static_cast<char>((c == kWhite ? 'A' : 'a') + x);
    }
    if (castling.empty()) castling = "-";
    return black + "/" + bp + "/8/8/8/8/" + wp + "/" + white + " w " + castling + " - 0 1";
  }

  void load(std::string_view text) {
    if (text.substr(0, 5) == "start" && (text.size() == 5 || text[5] == ':')) {
      int n = 518;
      if (text.size() > 5) {
        std::string_view num = text.substr(6);
        if (num.empty() || num.size() > 3) reject("start:N needs N in 0..959", 6);
        n = 0;
        for (size_t i = 0; i < num.size(); ++i) {
          if (num[i] < '0' || num[i] > '9') reject("start:N needs N in 0..959", 6 + i);
          n = n * 10 + (num[i] - '0');
        }
        if (n > 959) reject("start:N needs N in 0..959", 6);
      }
      std::string fen = start_text(n);
      load_fen(fen);
      return;
    }
    load_fen(text);
  }

  void load_fen(std::string_view text) {
    FenFields f = parse_fen(text, 8, 8, "KQRBNPLMOXYZAGWEHTJkqrbnplmoxyzagwehtj");
    // Columns of the board squares and of the fields, for error messages.
    std::array<size_t, 64> col{};
    std::vector<size_t> field_col;
    {
      size_t i = 0;
      while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
      int x = 0, y = 7;
      for (; i < text.size() && text[i] != ' ' && text[i] != '\t'; ++i) {
        char ch = text[i];
        if (ch == '/') {
          --y;
          x = 0;
        } else if (ch >= '0' && ch <= '9') {
          x += ch - '0';
        } else if (x < 8 && y >= 0) {
          col[y * 8 + x++] = i;
        }
      }
      for (; i < text.size(); ++i)
        if (text[i] != ' ' && text[i] != '\t' && (text[i - 1] == ' ' || text[i - 1] == '\t'))
          field_col.push_back(i);
    }
    Pos p;
    int royals[2] = {0, 0};
    for (int s = 0; s < 64; ++s) {
      char ch = f.at(to_coord(s));
      if (!ch) continue;
      int c = (ch >= 'a' && ch <= 'z') ? kBlack : kWhite;
      char up = c == kBlack ? static_cast<char>(ch - 'a' + 'A') : ch;
      int t = type_of_letter(up);
      int army = rules_.army(c);
      std::string where =
          std::string(1, static_cast<char>('a' + file_of(s))) + std::to_string(rank_of(s) + 1);
      if (std::string(kArmyLetters[army]).find(up) == std::string::npos)
        reject(std::string("piece '") + ch + "' on " + where + " is not of " +
                   (c == kWhite ? "White" : "Black") + "'s army (" + kArmyNames[army] + ")",
               col[s]);
      if (is_pawn_type(t) && (rank_of(s) == back_rank(1 - c) || (t == kPawn && rank_of(s) == back_rank(c))))
        reject(std::string("pawn on ") + where + ": not a square a pawn can stand on", col[s]);
      if (is_royal_type(t)) ++royals[c];
      p.b[s] = make_piece(c, t);
    }
    for (int c : {kWhite, kBlack}) {
      const char* who = c == kWhite ? "White" : "Black";
      if (rules_.army(c) == kTwoKingsArmy) {
        if (royals[c] < 1 || royals[c] > 2)
          reject(std::string(who) + " (two-kings) must have one or two warrior kings, has " +
                     std::to_string(royals[c]),
                 0);
      } else if (royals[c] != 1) {
        reject(std::string(who) + " must have exactly one king, has " + std::to_string(royals[c]), 0);
      }
    }
    p.side = f.side == Color::White ? kWhite : kBlack;
    size_t side_col = field_col.size() > 0 ? field_col[0] : 0;
    if (rules_.royal_attacked(p, 1 - p.side))
      reject(std::string(p.side == kWhite ? "Black" : "White") + " is in check but " +
                 (p.side == kWhite ? "White" : "Black") + " is to move",
             side_col);
    // Castling: only a Classic side castles.
    size_t castle_col = field_col.size() > 1 ? field_col[1] : 0;
    std::vector<CastlingRight> rights;
    try {
      rights = resolve_castling(f);
    } catch (const PositionError& e) {
      reject(std::string("castling field: ") + e.what(), castle_col + e.column);
    }
    for (const CastlingRight& r : rights) {
      int c = r.color == Color::White ? kWhite : kBlack;
      if (rules_.army(c) != kClassicArmy)
        reject(std::string("castling field: only a Classic army castles, not ") + kArmyNames[rules_.army(c)],
               castle_col);
      int king_file = -1;
      for (int x = 0; x < 8; ++x)
        if (p.b[back_rank(c) * 8 + x] == make_piece(c, kKing)) king_file = x;
      int side = r.rook_file > king_file ? kKingSide : kQueenSide;
      if (p.rook_file[c][side] >= 0) reject("castling field: two castling rights on one side", castle_col);
      p.rook_file[c][side] = static_cast<int8_t>(r.rook_file);
      if (king_file != 4 || (r.rook_file != 0 && r.rook_file != 7)) chess960_ = true;
    }
    // En passant: kept only when consistent with a double step and a capture is legal.
    if (f.ep) {
      int ep = (f.ep->y - 1) * 8 + f.ep->x;
      int them = 1 - p.side;
      int pawn = shift(ep, 0, forward(them));
      if (rank_of(ep) == back_rank(them) + 2 * forward(them) && !p.b[ep] && pawn >= 0 &&
          p.b[pawn] == make_piece(them, kPawn)) {
        p.ep = ep;
        if (!rules_.ep_capture_legal(p)) p.ep = -1;
      }
    }
    p.halfmove = f.halfmove;
    p.fullmove = f.fullmove;
    pos_ = p;
    history_.clear();
    hashes_.assign(1, compute_hash(pos_));
  }

  FenFields fields(const Pos& p) const {
    FenFields f;
    f.cells.assign(64, 0);
    for (int s = 0; s < 64; ++s)
      if (p.b[s]) f.at(to_coord(s)) = fen_letter(p.b[s]);
    f.side = p.side == kWhite ? Color::White : Color::Black;
    std::vector<CastlingRight> rights;
    for (int c : {kWhite, kBlack})
      for (int side : {kKingSide, kQueenSide})
        if (p.rook_file[c][side] >= 0)
          rights.push_back(CastlingRight{c == kWhite ? Color::White : Color::Black, p.rook_file[c][side]});
    f.castling = format_castling(f, rights);
    if (p.ep >= 0) f.ep = to_coord(p.ep);
    f.halfmove = p.halfmove;
    f.fullmove = p.fullmove;
    return f;
  }

  static uint64_t compute_hash(const Pos& p) {
    const Zobrist& z = zobrist();
    uint64_t h = 0;
    for (int s = 0; s < 64; ++s)
      if (p.b[s]) h ^= z.piece[p.b[s]][s];
    for (int c : {kWhite, kBlack})
      for (int side : {kKingSide, kQueenSide})
        if (p.rook_file[c][side] >= 0) h ^= z.castle[c][p.rook_file[c][side]];
    if (p.ep >= 0) h ^= z.ep_file[file_of(p.ep)];
    if (p.side == kBlack) h ^= z.black_to_move;
    return h;
  }

  Rules rules_;
  Pos pos_;
  bool chess960_ = false;
  std::vector<Pos> history_;
  std::vector<uint64_t> hashes_;  // every position since set_position, the current one last
};

int army_of(const std::map<std::string, std::string>& options, const std::string& key) {
  auto it = options.find(key);
  if (it == options.end()) return kClassicArmy;
  for (int a = 0; a < kArmyCount; ++a)
    if (it->second == kArmyNames[a]) return a;
  throw std::invalid_argument("chess2: option " + key + "=" + it->second +
                              " is not an army (classic, nemesis, empowered, reaper, two-kings, animals)");
}

}  // namespace

std::unique_ptr<Engine> make_chess2_engine(const std::map<std::string, std::string>& options) {
  for (const auto& [key, value] : options)
    if (key != "white-army" && key != "black-army")
      throw std::invalid_argument("chess2: unknown option '" + key + "' (white-army, black-army)");
  return std::make_unique<Chess2Engine>(
      std::array<int, 2>{army_of(options, "white-army"), army_of(options, "black-army")});
}

std::string chess2_back_rank(int n) {
  if (n < 0 || n > 959) throw std::invalid_argument("chess2_back_rank: n must be in 0..959");
  return chess960_back_rank(n);
}

int chess2_dice_start(uint64_t seed) {
  // splitmix64 drives a six-sided die; the rule text's procedure then fills the back rank.
  uint64_t state = seed;
  auto die = [&state]() {
    for (;;) {
      uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
      z ^= z >> 31;
      if (z < UINT64_MAX - UINT64_MAX % 6) return static_cast<int>(z % 6) + 1;
    }
  };
  auto roll_at_most = [&die](int hi) {
    for (;;) {
      int r = die();
      if (r <= hi) return r;  // reroll what is too high
    }
  };
  std::string r(8, ' ');
  r[(roll_at_most(4) - 1) * 2] = 'B';      // 1) the k-th dark square from the left: a, c, e, g
  r[(roll_at_most(4) - 1) * 2 + 1] = 'B';  // 2) the k-th light square: b, d, f, h
  auto place = [&r](int k, char c) {       // the k-th (1-based) empty square from the left
    for (int x = 0; x < 8; ++x)
      if (r[x] == ' ' && --k == 0) {
        r[x] = c;
        return;
      }
  };
  place(roll_at_most(6), 'Q');  // 3)
  place(roll_at_most(5), 'N');  // 4) reroll a 6
  place(roll_at_most(4), 'N');  // 5) reroll a 5 or 6
  place(1, 'R');                // 6) king in the middle of the three left, rooks outside
  place(1, 'K');
  place(1, 'R');
  for (int n = 0; n < 960; ++n)
    if (chess960_back_rank(n) == r) return n;
  throw std::logic_error("chess2_dice_start: no Chess960 number");
}

}  // namespace arb::ref
