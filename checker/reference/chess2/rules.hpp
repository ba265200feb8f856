// Chess 2 reference engine (chess2.cpp): the rules for a fixed pair of armies (RULINGS 4.3 to
// 4.12): pseudo-legal steps, captures, playing a step, complete turns. Included by
// chess2.cpp only.
#pragma once

#include <algorithm>
#include <array>
#include <vector>

#include "chess2/board.hpp"

namespace arb::ref::chess2 {

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

}  // namespace arb::ref::chess2
