// The encoding of the pieces' moves in Z3: a board's variables, the board after an action,
// attacks, check, and each kind of legal action (moves, explosions, strikes, whirlwinds,
// rampages, placements) as a formula over a board. Private to the synthesis.
#pragma once

#include <z3++.h>

#include <algorithm>
#include <string>
#include <vector>

#include "geo.hpp"

namespace arb::synth::detail {

// Constant-folding connectives: the board after a move has constant cells, and folding
// keeps the instantiated conjuncts small.
struct Logic {
  z3::context& ctx;
  z3::expr T, F;
  explicit Logic(z3::context& c) : ctx(c), T(c.bool_val(true)), F(c.bool_val(false)) {}
  // Z3 shares the true and false terms: a pointer comparison, no API call.
  bool is_T(const z3::expr& e) const { return static_cast<Z3_ast>(e) == static_cast<Z3_ast>(T); }
  bool is_F(const z3::expr& e) const { return static_cast<Z3_ast>(e) == static_cast<Z3_ast>(F); }
  z3::expr any(const std::vector<z3::expr>& v) const {
    z3::expr_vector out(ctx);
    for (const auto& e : v) {
      if (is_T(e)) return T;
      if (!is_F(e)) out.push_back(e);
    }
    if (out.empty()) return F;
    if (out.size() == 1) return out[0];
    return z3::mk_or(out);
  }
  z3::expr all(const std::vector<z3::expr>& v) const {
    z3::expr_vector out(ctx);
    for (const auto& e : v) {
      if (is_F(e)) return F;
      if (!is_T(e)) out.push_back(e);
    }
    if (out.empty()) return T;
    if (out.size() == 1) return out[0];
    return z3::mk_and(out);
  }
  z3::expr neg(const z3::expr& e) const { return is_T(e) ? F : is_F(e) ? T : !e; }
};

struct Board {
  std::vector<z3::expr> pc;   // [(cell * 2 + c) * nt + t]
  std::vector<z3::expr> occ;  // [cell]
  std::vector<z3::expr> col;  // [cell * 2 + c]
};

class Encoder {
 public:
  Encoder(const Geo& g, z3::context& ctx) : g_(g), L(ctx) {}

  // A board's variables: on the window's cells, or with `whole` on every cell (a board after
  // the mating action, whose pieces may leave the window).
  Board vars(const std::string& prefix, bool whole = false) {
    Board b;
    for (int x = 0; x < g_.ncells; ++x) {
      std::vector<z3::expr> any_c[2];
      for (int c = 0; c < 2; ++c)
        for (int t = 0; t < g_.nt; ++t) {
          if (!g_.inner[x] && !whole) {
            b.pc.push_back(L.F);
            continue;
          }
          char letter =
              c ? static_cast<char>(std::tolower(static_cast<unsigned char>(g_.letters[t]))) : g_.letters[t];
          z3::expr v = L.ctx.bool_const((prefix + "_" + letter + "_" + std::to_string(g_.coord[x].x) + "_" +
                                         std::to_string(g_.coord[x].y))
                                            .c_str());
          b.pc.push_back(v);
          any_c[c].push_back(v);
        }
      b.col.push_back(L.any(any_c[0]));
      b.col.push_back(L.any(any_c[1]));
      b.occ.push_back(L.any({b.col[x * 2], b.col[x * 2 + 1]}));
    }
    return b;
  }
  const z3::expr& pc(const Board& b, int x, int c, int t) const { return b.pc[(x * 2 + c) * g_.nt + t]; }

  // The board with cell `from` emptied (-1: a placement) and colour c's type t on `to`.
  Board after(const Board& b, int from, int to, int c, int t) const {
    Board a = b;
    auto clear = [&](int x) {
      for (int i = 0; i < 2 * g_.nt; ++i) a.pc[x * 2 * g_.nt + i] = L.F;
      a.occ[x] = L.F;
      a.col[x * 2] = a.col[x * 2 + 1] = L.F;
    };
    if (from >= 0) clear(from);
    clear(to);
    a.pc[(to * 2 + c) * g_.nt + t] = L.T;
    a.occ[to] = L.T;
    a.col[to * 2 + c] = L.T;
    return a;
  }

  z3::expr lit(const Board& b, const Lit& l) const { return pc(b, l.cell, l.c, l.t); }
  z3::expr attacked(const Board& b, int k, int by) const {
    std::vector<z3::expr> terms;
    for (const Attack& at : g_.attacks[by][k]) {
      std::vector<z3::expr> conj{pc(b, at.from, by, at.type)};
      if (L.is_F(conj[0])) continue;
      for (int s : at.path) conj.push_back(L.neg(b.occ[s]));
      for (const Lit& l : at.need) conj.push_back(lit(b, l));
      for (const Lit& l : at.none) conj.push_back(L.neg(lit(b, l)));
      terms.push_back(L.all(conj));
    }
    return L.any(terms);
  }
  // Any royal piece of colour c attacked (the generator's check, every royal piece).
  z3::expr royal_attacked(const Board& b, int c) const {
    std::vector<z3::expr> terms;
    for (int k = 0; k < g_.ncells; ++k)
      for (int t = 0; t < g_.nt; ++t) {
        if (!g_.is_royal(t)) continue;
        const z3::expr& r = pc(b, k, c, t);
        if (L.is_F(r)) continue;
        terms.push_back(L.all({r, attacked(b, k, c ^ 1)}));
      }
    return L.any(terms);
  }
  z3::expr royals_adjacent(const Board& b) const {
    std::vector<z3::expr> terms;
    for (int k = 0; k < g_.ncells; ++k)
      for (int n : g_.near[k]) terms.push_back(L.all({pc(b, k, 0, g_.royal), pc(b, n, 1, g_.royal)}));
    return L.any(terms);
  }
  // An enemy piece on `to` that colour c's type t from `from` may capture (RULINGS 4.5-4.10).
  z3::expr capturable(const Board& b, int c, int t, int from, int to) const {
    if (!g_.prog || !g_.prog->chess2_primitives) return b.col[to * 2 + (c ^ 1)];
    std::vector<z3::expr> v;
    for (int u = 0; u < g_.nt; ++u)
      if (((g_.take[t] >> u) & 1) && (g_.within[u] == 0 || g_.dist(from, to) <= g_.within[u]))
        v.push_back(pc(b, to, c ^ 1, u));
    return L.any(v);
  }
  // Colour c's type t on `from` may legally move to `to` (any promotion choice) in b.
  z3::expr reach(const Board& b, int c, int t, int from, int to) const {
    std::vector<z3::expr> parts;
    for (const Target& tg : g_.targets[c][from * g_.nt + t]) {
      if (tg.to != to) continue;
      std::vector<z3::expr> conj;
      for (int s : tg.path) conj.push_back(L.neg(b.occ[s]));
      for (const Lit& l : tg.need) conj.push_back(lit(b, l));
      if (tg.region) {
        // Inside the rectangle spanned by `from` and some enemy royal piece.
        std::vector<z3::expr> rect;
        const Coord a = g_.coord[from], d = g_.coord[to];
        for (int r = 0; r < g_.ncells; ++r) {
          const Coord k = g_.coord[r];
          if (d.x < std::min(a.x, k.x) || d.x > std::max(a.x, k.x) || d.y < std::min(a.y, k.y) ||
              d.y > std::max(a.y, k.y))
            continue;
          for (int u = 0; u < g_.nt; ++u)
            if (g_.is_royal(u)) rect.push_back(pc(b, r, c ^ 1, u));
        }
        conj.push_back(L.any(rect));
      }
      std::vector<z3::expr> opts;
      if (tg.move) {
        std::vector<z3::expr> quiet{L.neg(b.occ[to])};
        if (g_.adjacency) {
          std::vector<z3::expr> nb;
          for (int n : g_.near[to])
            if (n != from) nb.push_back(b.occ[n]);
          quiet.push_back(L.any(nb));
        }
        opts.push_back(L.all(quiet));
      }
      if (tg.capture) opts.push_back(capturable(b, c, t, from, to));
      if (tg.own) {
        std::vector<z3::expr> own;
        for (int u = 0; u < g_.nt; ++u)
          if ((g_.own_takeable >> u) & 1) own.push_back(pc(b, to, c, u));
        opts.push_back(L.any(own));
      }
      conj.push_back(L.any(opts));
      parts.push_back(L.all(conj));
    }
    return L.any(parts);
  }
  z3::expr safe_after(const Board& a, int c, int t, int to) const {
    std::vector<z3::expr> conj;
    if (g_.royal_safe) conj.push_back(L.neg(royal_attacked(a, c)));
    if (g_.royals_apart && t == g_.royal) {
      std::vector<z3::expr> adj;
      for (int n : g_.near[to]) adj.push_back(pc(a, n, c ^ 1, g_.royal));
      conj.push_back(L.neg(L.any(adj)));
    }
    return L.all(conj);
  }
  z3::expr legal_move(const Board& b, int c, int t, int from, int to) const {
    z3::expr here = pc(b, from, c, t);
    if (L.is_F(here)) return L.F;
    z3::expr r = reach(b, c, t, from, to);
    if (L.is_F(r)) return L.F;
    z3::expr safe = safe_after(after(b, from, to, c, t), c, t, to);
    // `royal-safe` with `royal-capture -> win` (No Stress Chess's advanced game, RULINGS
    // 3.7): taking an enemy royal piece wins at once, legal whatever it leaves attacked.
    if (g_.prog->royal_capture && g_.prog->royal_safe) {
      std::vector<z3::expr> royal_there{safe};
      for (int u = 0; u < g_.nt; ++u)
        if (g_.is_royal(u)) royal_there.push_back(pc(b, to, c ^ 1, u));
      safe = L.any(royal_there);
    }
    // A capture that explodes (the removal effect triggered by a capture): the board after
    // the blast decides, a quiet move as any other.
    if (!g_.prog->grid && g_.prog->types[t].explodes())
      return L.all(
          {here, r, L.any({L.all({L.neg(b.occ[to]), safe}), L.all({b.occ[to], blast(b, c, t, from, to)})})});
    return L.all({here, r, safe});
  }
  // Colour c's type t from `from` captures on `to` and its capture explodes: every piece
  // within the effect's reach of `to` but kept and immune ones goes, the capturer too with
  // `self`. As the generator judges it: with `royal-safe` no own royal piece may go; one
  // that removes an enemy royal piece wins at once with `royal-capture -> win` (legal
  // whatever it leaves attacked); otherwise the board after must be safe.
  z3::expr blast(const Board& b, int c, int t, int from, int to) const {
    const lang::PieceProgram::Removal& rm = g_.prog->types[t].around;
    uint32_t keep = rm.kept;
    for (int u = 0; u < g_.nt; ++u)
      if (g_.prog->types[u].immune) keep |= 1u << u;
    Board a = after(b, from, to, c, t);
    std::vector<z3::expr> own_gone, enemy_gone;
    for (int u = 0; u < g_.nt; ++u)
      if (g_.is_royal(u)) enemy_gone.push_back(pc(b, to, c ^ 1, u));
    for (int x = 0; x < g_.ncells; ++x) {
      if (x == to || g_.dist(x, to) > rm.reach) continue;
      for (int u = 0; u < g_.nt; ++u) {
        if (!g_.is_royal(u) || ((keep >> u) & 1)) continue;
        if (x != from) own_gone.push_back(pc(b, x, c, u));
        enemy_gone.push_back(pc(b, x, c ^ 1, u));
      }
      remove_on(a, x, keep);
    }
    if (rm.self) {
      remove_on(a, to, 0);
      if (g_.is_royal(t)) own_gone.push_back(L.T);
    }
    std::vector<z3::expr> conj;
    if (g_.prog->royal_safe) conj.push_back(L.neg(L.any(own_gone)));
    z3::expr safe = safe_after(a, c, t, to);
    conj.push_back(g_.prog->royal_capture ? L.any({L.any(enemy_gone), safe}) : safe);
    return L.all(conj);
  }
  // The board with the pieces on `x` removed, those of the types in `keep` excepted.
  void remove_on(Board& a, int x, uint32_t keep) const {
    std::vector<z3::expr> any_c[2];
    for (int c = 0; c < 2; ++c)
      for (int u = 0; u < g_.nt; ++u) {
        z3::expr& v = a.pc[(x * 2 + c) * g_.nt + u];
        if (!((keep >> u) & 1)) v = L.F;
        any_c[c].push_back(v);
      }
    a.col[x * 2] = L.any(any_c[0]);
    a.col[x * 2 + 1] = L.any(any_c[1]);
    a.occ[x] = L.any({a.col[x * 2], a.col[x * 2 + 1]});
  }
  // RULINGS 4.10's strike: colour c's type t on `from` captures on `to` without moving.
  // With `out` (here and in legal_whirl, legal_rampage), the board after the action is
  // stored there and the mover's safety is left to the caller, who states it on that board.
  z3::expr legal_strike(const Board& b, int c, int t, int from, int to, Board* out = nullptr) const {
    const lang::PieceProgram& pp = g_.prog->types[t];
    z3::expr here = pc(b, from, c, t);
    std::vector<z3::expr> ways;
    for (const auto& l : pp.strike.lines[c]) {
      std::vector<int> cells = line_cells(g_, from, l.d, l.range);
      auto it = std::find(cells.begin(), cells.end(), to);
      if (it == cells.end()) continue;
      std::vector<z3::expr> conj;
      for (auto p = cells.begin(); p != it; ++p) conj.push_back(L.neg(b.occ[*p]));
      ways.push_back(L.all(conj));
    }
    if (ways.empty()) return L.F;
    Board a = b;
    remove_on(a, to, 0);
    if (out) {
      *out = a;
      return L.all({here, L.any(ways), capturable(b, c, t, from, to)});
    }
    return L.all({here, L.any(ways), capturable(b, c, t, from, to), safe_after(a, c, t, from)});
  }
  // RULINGS 4.9's whirlwind: the piece stays and removes every piece around it but immune
  // and spared ones, at least `remove_at_least`, never beside an own royal piece.
  z3::expr legal_whirl(const Board& b, int c, int t, int from, Board* out = nullptr) const {
    const lang::PieceProgram& pp = g_.prog->types[t];
    if (!pp.whirlwind()) return L.F;
    uint32_t keep = pp.around.kept;
    for (int u = 0; u < g_.nt; ++u)
      if (g_.prog->types[u].immune) keep |= 1u << u;
    std::vector<z3::expr> conj{pc(b, from, c, t)};
    z3::expr_vector victims(L.ctx);
    Board a = b;
    for (int x = 0; x < g_.ncells; ++x) {
      int dd = g_.dist(from, x);
      if (dd == 0 || dd > pp.around.reach) continue;
      for (int cc = 0; cc < 2; ++cc)
        for (int u = 0; u < g_.nt; ++u)
          if (!((keep >> u) & 1) && !L.is_F(pc(b, x, cc, u))) victims.push_back(pc(b, x, cc, u));
      if (pp.around.not_beside_own_royal && dd == 1)
        for (int u = 0; u < g_.nt; ++u)
          if (g_.is_royal(u)) conj.push_back(L.neg(pc(b, x, c, u)));
      remove_on(a, x, keep);
    }
    if (pp.around.at_least > 0) {
      if (static_cast<int>(victims.size()) < pp.around.at_least) return L.F;
      conj.push_back(z3::atleast(victims, pp.around.at_least));
    }
    if (out)
      *out = a;
    else
      conj.push_back(safe_after(a, c, t, from));
    return L.all(conj);
  }
  // RULINGS 4.10's rampage along direction d: a piece within reach, no blocker on the path;
  // it removes every piece on the path and ends at its far end.
  z3::expr legal_rampage(const Board& b, int c, int t, int from, int d, Board* out = nullptr) const {
    const lang::PieceProgram& pp = g_.prog->types[t];
    if (pp.rampage.reach <= 0 || !((pp.rampage.dirs[c] >> d) & 1)) return L.F;
    std::vector<int> path = line_cells(g_, from, d, pp.rampage.reach);
    if (path.empty()) return L.F;
    std::vector<z3::expr> conj{pc(b, from, c, t)}, some;
    Board a = b;
    for (int s : path) {
      some.push_back(b.occ[s]);
      for (int u = 0; u < g_.nt; ++u) {
        bool blocked =
            ((pp.rampage.blocked_types >> u) & 1) || (pp.rampage.blocked_immune && g_.prog->types[u].immune);
        if ((pp.rampage.blocked_own_royal && g_.is_royal(u)) || blocked)
          conj.push_back(L.neg(pc(b, s, c, u)));
        if (blocked) conj.push_back(L.neg(pc(b, s, c ^ 1, u)));
      }
      if (pp.rampage.self_beyond >= 0 && g_.dist(from, s) > pp.rampage.self_beyond)
        conj.push_back(L.neg(pc(b, s, c ^ 1, t)));
      remove_on(a, s, 0);
    }
    conj.push_back(L.any(some));
    a = after(a, from, path.back(), c, t);
    if (out)
      *out = a;
    else
      conj.push_back(safe_after(a, c, t, path.back()));
    return L.all(conj);
  }
  z3::expr legal_place(const Board& b, int c, int t, int to) const {
    if (!g_.placeable[c][to * g_.nt + t] || !g_.inner[to]) return L.F;
    return L.all({L.neg(b.occ[to]), safe_after(after(b, -1, to, c, t), c, t, to)});
  }

  const Geo& g_;
  Logic L;
};

}  // namespace arb::synth::detail
