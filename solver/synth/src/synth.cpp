// Z3 position synthesis: the encoding generated from a compiled Program (see synth.hpp).
#include "arbiter/synth/synth.hpp"

#include <z3++.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

#include "arbiter/chessme_text.hpp"
#include "arbiter/fen.hpp"
#include "arbiter/notation.hpp"

namespace arb::synth {

Goal parse_goal(const std::string& t) {
  if (t == "checkmated" || t == "checkmate" || t == "mate") return Goal::Checkmated;
  if (t == "stalemated" || t == "stalemate" || t == "no-move-draw" || t == "chessme-draw")
    return Goal::Stalemated;
  if (t == "in-check" || t == "check") return Goal::InCheck;
  if (t == "mate-in-1" || t == "mate1") return Goal::MateIn1;
  if (t == "no-legal-move") return Goal::NoLegalMove;
  throw std::invalid_argument("unknown goal `" + t +
                              "` (checkmated, stalemated, in-check, mate-in-1, no-legal-move)");
}

std::string to_string(Goal g) {
  switch (g) {
    case Goal::Checkmated:
      return "checkmated";
    case Goal::Stalemated:
      return "stalemated";
    case Goal::InCheck:
      return "in-check";
    case Goal::MateIn1:
      return "mate-in-1";
    case Goal::NoLegalMove:
      return "no-legal-move";
  }
  return "?";
}

namespace {

using lang::Program;

// A move of one piece type from one square: the target, the squares that must be empty on
// the way (a ride's or a lame leap's), and whether it may move there quietly or capture.
struct Target {
  int to;
  std::vector<int> path;
  bool move, capture;
};
struct Attack {
  int from, type;
  std::vector<int> path;
};

// The board as the encoding sees it, built from the Program's tables. Cells are the
// squares a piece may reach; `inner` ones may hold a piece in the synthesised position
// (the window). On the grid the outer cells are the ring around the window: the only
// squares off the window a move can reach legally (a quiet move needs a neighbour, a
// capture a victim, and every piece is in the window).
struct Geo {
  bool grid = false;
  int width = 0, height = 0;  // bounded board size
  int ncells = 0;
  std::vector<Coord> coord;
  std::vector<char> inner;
  std::map<std::pair<int, int>, int> index;
  int nt = 0;
  std::string letters;
  int royal = -1;
  bool adjacency = false, royals_apart = false, royal_safe = true, has_reserve = false;
  std::vector<std::vector<Target>> targets[2];  // [c][f * nt + t]
  std::vector<std::vector<Attack>> attacks[2];  // [by][k]
  std::vector<std::vector<int>> near;           // inner cells at king distance 1
  std::vector<char> standable[2];               // [c][cell * nt + t]
  std::vector<char> placeable[2];               // [c][cell * nt + t]
  std::vector<std::string> promote[2];          // [c][cell * nt + t]: types it may become
  std::vector<char> must_promote;               // [t]
  int set[2][lang::kMaxTypes] = {};             // each side's set of pieces
  std::vector<int> promoters;                   // types that promote
  int hand_size = 0;

  int cell(int x, int y) const {
    auto it = index.find({x, y});
    return it == index.end() ? -1 : it->second;
  }
  int add_cell(int x, int y, bool in) {
    int id = ncells++;
    coord.push_back(Coord{x, y});
    inner.push_back(in);
    index[{x, y}] = id;
    return id;
  }
  void finish() {
    for (int c = 0; c < 2; ++c) {
      attacks[c].assign(ncells, {});
      for (int f = 0; f < ncells; ++f)
        for (int t = 0; t < nt; ++t)
          for (const Target& tg : targets[c][f * nt + t])
            if (tg.capture) attacks[c][tg.to].push_back(Attack{f, t, tg.path});
    }
    near.assign(ncells, {});
    for (int a = 0; a < ncells; ++a)
      for (int dx = -1; dx <= 1; ++dx)
        for (int dy = -1; dy <= 1; ++dy) {
          if (!dx && !dy) continue;
          int b = cell(coord[a].x + dx, coord[a].y + dy);
          if (b >= 0 && inner[b]) near[a].push_back(b);
        }
  }
};

void count_set_letter(Geo& g, char ch) {
  int c = std::islower(static_cast<unsigned char>(ch)) ? 1 : 0;
  size_t t = g.letters.find(static_cast<char>(std::toupper(static_cast<unsigned char>(ch))));
  if (t != std::string::npos) ++g.set[c][t];
}

template <class BB>
void build_bounded(const Program& p, const lang::BoardTables<BB>& T, Geo& g, int ww, int wh) {
  g.width = p.width;
  g.height = p.height;
  for (int s = 0; s < p.squares; ++s) {
    int x = s % p.width, y = s / p.width + 1;
    g.add_cell(x, y, x < ww && y <= wh);
  }
  for (int c = 0; c < 2; ++c) {
    g.targets[c].assign(g.ncells * g.nt, {});
    g.standable[c].assign(g.ncells * g.nt, 1);
    g.placeable[c].assign(g.ncells * g.nt, 0);
    g.promote[c].assign(g.ncells * g.nt, "");
  }
  for (int t = 0; t < g.nt; ++t) {
    const lang::PieceTables<BB>& pt = T.pieces[t];
    const lang::PieceProgram& pp = p.types[t];
    for (int c = 0; c < 2; ++c)
      for (int f = 0; f < g.ncells; ++f) {
        std::vector<Target>& out = g.targets[c][f * g.nt + t];
        for (int to = 0; to < g.ncells; ++to) {
          bool m = lang::bb::test(pt.leap_move[c][f], to), k = lang::bb::test(pt.leap_capture[c][f], to);
          if (m || k) out.push_back(Target{to, {}, m, k});
        }
        for (const auto& l : pt.initial_lame[c][f]) {
          Target tg{l.to, {}, true, false};
          for (int s = 0; s < g.ncells; ++s)
            if (lang::bb::test(l.path, s)) tg.path.push_back(s);
          out.push_back(tg);
        }
        for (int d = 0; d < 8; ++d) {
          bool m = (pt.ride_move[c] >> d) & 1, k = (pt.ride_capture[c] >> d) & 1;
          if (!m && !k) continue;
          std::vector<int> path;
          for (int x = g.coord[f].x + lang::kDirDx[d], y = g.coord[f].y + lang::kDirDy[d];;
               x += lang::kDirDx[d], y += lang::kDirDy[d]) {
            int to = g.cell(x, y);
            if (to < 0) break;
            out.push_back(Target{to, path, m, k});
            path.push_back(to);
          }
        }
        bool must = pp.must_promote && !pp.promote_to.empty();
        bool in_promo = lang::bb::test(pt.promote_zone[c], f);
        if (lang::bb::test(pt.forbidden_zone[c], f) || (must && in_promo)) g.standable[c][f * g.nt + t] = 0;
        if (lang::bb::test(T.place_zone[c], f) && !(pp.must_promote && in_promo))
          g.placeable[c][f * g.nt + t] = 1;
        if (in_promo) g.promote[c][f * g.nt + t] = pp.promote_to;
      }
    g.must_promote.push_back(pp.must_promote);
    if (!pp.promote_to.empty()) g.promoters.push_back(t);
  }
  std::string lower;
  for (char ch : p.letters) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
  FenFields start = parse_fen(p.start_text, p.width, p.height, p.letters + lower);
  for (char ch : start.cells)
    if (ch) count_set_letter(g, ch);
  for (char ch : start.reserve) count_set_letter(g, ch);
}

void build_grid(const Program& p, Geo& g, int ox, int oy, int ww, int wh) {
  const lang::GridProgram& G = *p.grid;
  if (!G.adjacency_rule)
    throw std::invalid_argument(
        "synthesis on the unbounded grid needs the adjacency rule (a window is exact only then)");
  g.grid = true;
  g.adjacency = true;
  for (int y = oy; y < oy + wh; ++y)
    for (int x = ox; x < ox + ww; ++x) g.add_cell(x, y, true);
  for (int y = oy - 1; y <= oy + wh; ++y)
    for (int x = ox - 1; x <= ox + ww; ++x)
      if (g.cell(x, y) < 0) g.add_cell(x, y, false);
  for (int c = 0; c < 2; ++c) {
    g.targets[c].assign(g.ncells * g.nt, {});
    g.standable[c].assign(g.ncells * g.nt, 1);
    g.placeable[c].assign(g.ncells * g.nt, 0);
    g.promote[c].assign(g.ncells * g.nt, "");
  }
  for (int t = 0; t < g.nt; ++t) {
    g.must_promote.push_back(0);
    for (int c = 0; c < 2; ++c)
      for (int f = 0; f < g.ncells; ++f) {
        if (!g.inner[f]) continue;
        std::vector<Target>& out = g.targets[c][f * g.nt + t];
        for (const lang::GridMove& mv : G.types[t].moves[c]) {
          std::vector<int> path;
          for (int k = 1;; ++k) {
            int to = g.cell(g.coord[f].x + k * mv.dx, g.coord[f].y + k * mv.dy);
            if (to < 0) break;
            out.push_back(Target{to, path, mv.can_move, mv.can_capture});
            if (!mv.rider) break;
            path.push_back(to);
          }
        }
      }
  }
  // The set: the setup's pieces and each side's pile.
  for (size_t i = 0; i < G.setup_pieces.size(); ++i)
    if (i == 0 || G.setup_pieces[i - 1] == ',') count_set_letter(g, G.setup_pieces[i]);
  for (char ch : G.pile) {
    count_set_letter(g, static_cast<char>(std::toupper(static_cast<unsigned char>(ch))));
    count_set_letter(g, static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
  }
  g.hand_size = G.hand_size;
}

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

  Board vars(const std::string& prefix) {
    Board b;
    for (int x = 0; x < g_.ncells; ++x) {
      std::vector<z3::expr> any_c[2];
      for (int c = 0; c < 2; ++c)
        for (int t = 0; t < g_.nt; ++t) {
          if (!g_.inner[x]) {
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

  z3::expr attacked(const Board& b, int k, int by) const {
    std::vector<z3::expr> terms;
    for (const Attack& at : g_.attacks[by][k]) {
      std::vector<z3::expr> conj{pc(b, at.from, by, at.type)};
      if (L.is_F(conj[0])) continue;
      for (int s : at.path) conj.push_back(L.neg(b.occ[s]));
      terms.push_back(L.all(conj));
    }
    return L.any(terms);
  }
  z3::expr royal_attacked(const Board& b, int c) const {
    std::vector<z3::expr> terms;
    for (int k = 0; k < g_.ncells; ++k) {
      const z3::expr& r = pc(b, k, c, g_.royal);
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
  // Colour c's type t on `from` may legally move to `to` (any promotion choice) in b.
  z3::expr reach(const Board& b, int c, int t, int from, int to) const {
    std::vector<z3::expr> parts;
    for (const Target& tg : g_.targets[c][from * g_.nt + t]) {
      if (tg.to != to) continue;
      std::vector<z3::expr> conj;
      for (int s : tg.path) conj.push_back(L.neg(b.occ[s]));
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
      if (tg.capture) opts.push_back(b.col[to * 2 + (c ^ 1)]);
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
    return L.all({here, r, safe_after(after(b, from, to, c, t), c, t, to)});
  }
  z3::expr legal_place(const Board& b, int c, int t, int to) const {
    if (!g_.placeable[c][to * g_.nt + t] || !g_.inner[to]) return L.F;
    return L.all({L.neg(b.occ[to]), safe_after(after(b, -1, to, c, t), c, t, to)});
  }

  const Geo& g_;
  Logic L;
};

int type_of(const Geo& g, char letter) {
  size_t t = g.letters.find(static_cast<char>(std::toupper(static_cast<unsigned char>(letter))));
  return t == std::string::npos ? -1 : static_cast<int>(t);
}

// "KQ v K": counts per colour and type.
void parse_material(const Geo& g, const std::string& text, int (&n)[2][lang::kMaxTypes]) {
  size_t split = text.find(" v ");
  size_t skip = 3;
  if (split == std::string::npos) {
    split = text.find('v');
    skip = 1;
  }
  if (split == std::string::npos)
    throw std::invalid_argument("--material must read WHITE v BLACK, e.g. \"KQ v K\"");
  std::string side[2] = {text.substr(0, split), text.substr(split + skip)};
  for (int c = 0; c < 2; ++c)
    for (char ch : side[c]) {
      if (ch == ' ') continue;
      int t = type_of(g, ch);
      if (t < 0)
        throw std::invalid_argument(std::string("--material: no piece `") + ch + "` in this variant");
      ++n[c][t];
    }
  for (int c = 0; c < 2; ++c)
    if (n[c][g.royal] != 1)
      throw std::invalid_argument(std::string("--material: ") + (c ? "Black" : "White") +
                                  " needs exactly one " + g.letters[g.royal] + " on the board");
}

class Synth {
 public:
  Synth(std::shared_ptr<const Program> p, const Request& r)
      : p_(std::move(p)), r_(r), solver_(ctx_), engine_(lang::make_compiled_engine(p_)) {
    build();
  }

  Outcome run() {
    auto t0 = std::chrono::steady_clock::now();
    deadline_ = r_.timeout_seconds > 0 ? t0 + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                  std::chrono::duration<double>(r_.timeout_seconds))
                                       : std::chrono::steady_clock::time_point::max();
    if (r_.smallest) {
      int most = 0;
      for (int c = 0; c < 2; ++c)
        for (int t = 0; t < g_.nt; ++t) most += g_.set[c][t];
      most = std::min(most, g_.ncells);
      for (int n = 2; n <= most && out_.found.empty() && !out_.timed_out; ++n) {
        z3::expr a = ctx_.bool_const(("pieces_" + std::to_string(n)).c_str());
        solver_.add(z3::implies(a, count_pieces(n)));
        loop({a});
        out_.exhausted = out_.found.empty() ? !out_.timed_out : out_.exhausted;
      }
    } else {
      if (r_.pieces >= 0) solver_.add(count_pieces(r_.pieces));
      loop({});
    }
    out_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out_;
  }

 private:
  void build() {
    const Program& p = *p_;
    g_.nt = p.grid ? static_cast<int>(p.grid->types.size()) : p.ntypes;
    for (int t = 0; t < g_.nt; ++t)
      g_.letters.push_back(p.grid ? p.grid->types[t].letter : p.types[t].letter);
    g_.royal = p.grid ? p.grid->royal_type : p.royal_type;
    if (g_.royal < 0) throw std::invalid_argument("synthesis needs a royal piece type");
    if (p.chess2_primitives)
      throw std::invalid_argument(
          "synthesis does not encode Chess 2's primitives yet (armies' capture rules, teleports, region "
          "moves, "
          "borrowing, midline invasion)");
    if (p.cards)
      throw std::invalid_argument(
          "synthesis does not encode No Stress Chess's card layer yet (the deck, the hands, the played "
          "card's piece type)");
    g_.royal_safe = p.royal_safe;
    g_.royals_apart = p.royals_apart;
    g_.has_reserve = p.has_reserve;
    if (p.grid) {
      build_grid(p, g_, r_.origin_x, r_.origin_y, r_.window_w > 0 ? r_.window_w : 6,
                 r_.window_h > 0 ? r_.window_h : 6);
      g_.royal_safe = true;
    } else {
      int ww = r_.window_w > 0 ? r_.window_w : p.width, wh = r_.window_h > 0 ? r_.window_h : p.height;
      if (ww > p.width || wh > p.height) throw std::invalid_argument("--window is larger than the board");
      if (p.tables64)
        build_bounded(p, *p.tables64, g_, ww, wh);
      else if (p.tables128)
        build_bounded(p, *p.tables128, g_, ww, wh);
      else
        build_bounded(p, *p.tables256, g_, ww, wh);
    }
    g_.finish();
    enc_ = std::make_unique<Encoder>(g_, ctx_);
    us_ = r_.side == Color::White ? 0 : 1;

    // Hands / reserves.
    for (char ch : r_.hands) {
      if (ch == '-' || ch == '/' || ch == ' ') continue;
      int t = type_of(g_, ch);
      if (t < 0) throw std::invalid_argument(std::string("--hands: no piece `") + ch + "` in this variant");
      ++hand_[std::islower(static_cast<unsigned char>(ch)) ? 1 : 0][t];
    }
    bool any_hand = false;
    for (int c = 0; c < 2; ++c) {
      int n = 0;
      for (int t = 0; t < g_.nt; ++t) n += hand_[c][t];
      any_hand |= n > 0;
      if (g_.grid && n > g_.hand_size)
        throw std::invalid_argument("--hands: a ChessMe hand holds at most " + std::to_string(g_.hand_size) +
                                    " tiles");
    }
    if (any_hand && !g_.grid && !g_.has_reserve)
      throw std::invalid_argument("--hands: this variant has no reserves");

    P_ = enc_->vars("p");
    position_constraints(P_, true);
    if (!r_.material.empty()) {
      int n[2][lang::kMaxTypes] = {};
      parse_material(g_, r_.material, n);
      for (int c = 0; c < 2; ++c)
        for (int t = 0; t < g_.nt; ++t) solver_.add(count_is(P_, c, t, n[c][t]));
    }
    for (const auto& [co, ch] : r_.squares) {
      int x = g_.cell(co.x, co.y);
      if (x < 0 || !g_.inner[x])
        throw std::invalid_argument("--square " + square_name(co) + " is off the window");
      if (ch == '.') {
        solver_.add(!P_.occ[x]);
        continue;
      }
      int t = type_of(g_, ch);
      if (t < 0) throw std::invalid_argument(std::string("--square: no piece `") + ch + "` in this variant");
      solver_.add(enc_->pc(P_, x, std::islower(static_cast<unsigned char>(ch)) ? 1 : 0, t));
    }

    const int them = us_ ^ 1;
    switch (r_.goal) {
      case Goal::InCheck:
        solver_.add(enc_->royal_attacked(P_, us_));
        break;
      case Goal::Checkmated:
        solver_.add(enc_->royal_attacked(P_, us_));
        seed(0, P_, us_);
        break;
      case Goal::Stalemated:
        solver_.add(!enc_->royal_attacked(P_, us_));
        seed(0, P_, us_);
        break;
      case Goal::NoLegalMove:
        seed(0, P_, us_);
        break;
      case Goal::MateIn1:
        build_mate_in_1();
        seed(1, Q_, them);
        break;
    }
  }

  z3::expr count_is(const Board& b, int c, int t, int n) {
    z3::expr_vector v(ctx_);
    for (int x = 0; x < g_.ncells; ++x)
      if (g_.inner[x]) v.push_back(enc_->pc(b, x, c, t));
    if (v.empty()) return ctx_.bool_val(n == 0);
    std::vector<int> ones(v.size(), 1);
    return z3::pbeq(v, ones.data(), n);
  }
  z3::expr count_pieces(int n) {
    z3::expr_vector v(ctx_);
    for (int x = 0; x < g_.ncells; ++x)
      if (g_.inner[x])
        for (int c = 0; c < 2; ++c)
          for (int t = 0; t < g_.nt; ++t) v.push_back(enc_->pc(P_, x, c, t));
    std::vector<int> ones(v.size(), 1);
    return z3::pbeq(v, ones.data(), n);
  }

  // What every position must satisfy: one piece per square, allowed squares, one royal
  // each, the side not to move not in check, royals apart, material within the set.
  void position_constraints(const Board& b, bool with_material) {
    for (int x = 0; x < g_.ncells; ++x) {
      if (!g_.inner[x]) continue;
      z3::expr_vector v(ctx_);
      for (int c = 0; c < 2; ++c)
        for (int t = 0; t < g_.nt; ++t) {
          v.push_back(enc_->pc(b, x, c, t));
          if (!g_.standable[c][x * g_.nt + t]) solver_.add(!enc_->pc(b, x, c, t));
        }
      solver_.add(z3::atmost(v, 1));
    }
    for (int c = 0; c < 2; ++c) {
      z3::expr_vector v(ctx_);
      for (int x = 0; x < g_.ncells; ++x)
        if (g_.inner[x]) v.push_back(enc_->pc(b, x, c, g_.royal));
      solver_.add(z3::atmost(v, 1));
      solver_.add(z3::atleast(v, 1));
    }
    if (g_.royals_apart) solver_.add(!enc_->royals_adjacent(b));
    if (!with_material) return;
    solver_.add(!enc_->royal_attacked(b, us_ ^ 1));
    // Material: board plus hand within the set; a type some promoter becomes may exceed
    // its count by what the promoters miss (the generator's reserve check). Pseudo-Boolean:
    // unary "extra" counters u for the promoted-to types.
    for (int c = 0; c < 2; ++c) {
      int promoter_room = 0;
      z3::expr_vector global(ctx_);
      std::vector<int> global_k;
      for (int t = 0; t < g_.nt; ++t) {
        if (hand_[c][t] > g_.set[c][t])
          throw std::invalid_argument("--hands: more " + std::string(1, g_.letters[t]) +
                                      " than a side's set holds");
        bool promoter = std::find(g_.promoters.begin(), g_.promoters.end(), t) != g_.promoters.end();
        if (promoter) {
          promoter_room += g_.set[c][t] - hand_[c][t];
          for (int x = 0; x < g_.ncells; ++x)
            if (g_.inner[x]) global.push_back(enc_->pc(b, x, c, t)), global_k.push_back(1);
        }
      }
      for (int t = 0; t < g_.nt; ++t) {
        bool promoter = std::find(g_.promoters.begin(), g_.promoters.end(), t) != g_.promoters.end();
        bool promotable = false;
        for (int s : g_.promoters)
          for (char pt : p_->grid ? std::string() : p_->types[s].promote_to)
            if (pt == static_cast<char>(t)) promotable = true;
        z3::expr_vector v(ctx_);
        std::vector<int> k;
        for (int x = 0; x < g_.ncells; ++x)
          if (g_.inner[x]) v.push_back(enc_->pc(b, x, c, t)), k.push_back(1);
        if (promotable && !promoter)
          for (int i = 0; i < promoter_room; ++i) {
            z3::expr u = ctx_.bool_const(
                ("extra_" + std::to_string(c) + "_" + std::to_string(t) + "_" + std::to_string(i)).c_str());
            v.push_back(u), k.push_back(-1);
            global.push_back(u), global_k.push_back(1);
          }
        if (v.empty()) continue;
        solver_.add(z3::pble(v, k.data(), g_.set[c][t] - hand_[c][t]));
      }
      if (!global.empty()) solver_.add(z3::pble(global, global_k.data(), promoter_room));
    }
  }

  // Mate in one: board Q after one move of the side to move (us), tied to P by a one-hot
  // selector over (from, to); Q has them in check, us safe.
  void build_mate_in_1() {
    Q_ = enc_->vars("q");
    const int us = us_, them = us_ ^ 1;
    std::vector<z3::expr> from_any(g_.ncells, enc_->L.F), to_any(g_.ncells, enc_->L.F);
    std::vector<std::vector<z3::expr>> from_terms(g_.ncells), to_terms(g_.ncells);
    z3::expr_vector all(ctx_);
    for (int f = 0; f < g_.ncells; ++f) {
      if (!g_.inner[f]) continue;
      std::set<int> tos;
      for (int t = 0; t < g_.nt; ++t)
        for (const Target& tg : g_.targets[us][f * g_.nt + t])
          if (g_.inner[tg.to]) tos.insert(tg.to);
      for (int to : tos) {
        z3::expr m = ctx_.bool_const(("mv_" + std::to_string(f) + "_" + std::to_string(to)).c_str());
        moves_.push_back({f, to, m});
        all.push_back(m);
        from_terms[f].push_back(m);
        to_terms[to].push_back(m);
        std::vector<z3::expr> how;
        for (int s = 0; s < g_.nt; ++s) {
          z3::expr here = enc_->pc(P_, f, us, s);
          z3::expr r = enc_->reach(P_, us, s, f, to);
          if (enc_->L.is_F(r)) {
            solver_.add(z3::implies(m, !here));
            continue;
          }
          how.push_back(enc_->L.all({here, r}));
          // What arrives on `to`.
          std::string allowed;
          const std::string& promo = g_.promote[us][to * g_.nt + s];
          if (promo.empty() || !g_.must_promote[s]) allowed.push_back(static_cast<char>(s));
          allowed += promo;
          std::vector<z3::expr> arrive;
          for (char a : allowed) arrive.push_back(enc_->pc(Q_, to, us, a));
          solver_.add(z3::implies(m && here, enc_->L.any(arrive)));
        }
        solver_.add(z3::implies(m, enc_->L.any(how)));
      }
    }
    solver_.add(z3::atmost(all, 1));
    solver_.add(z3::atleast(all, 1));
    for (int x = 0; x < g_.ncells; ++x) {
      if (!g_.inner[x]) continue;
      z3::expr fr = enc_->L.any(from_terms[x]), to = enc_->L.any(to_terms[x]);
      std::vector<z3::expr> same, none, them_none;
      z3::expr_vector ours(ctx_), cellv(ctx_);
      for (int c = 0; c < 2; ++c)
        for (int t = 0; t < g_.nt; ++t) {
          const z3::expr &q = enc_->pc(Q_, x, c, t), &pp = enc_->pc(P_, x, c, t);
          same.push_back(q == pp);
          none.push_back(!q);
          if (c == them) them_none.push_back(!q);
          if (c == us) ours.push_back(q);
          cellv.push_back(q);
        }
      solver_.add(z3::implies(!fr && !to, enc_->L.all(same)));
      solver_.add(z3::implies(fr, enc_->L.all(none)));
      solver_.add(z3::implies(to, enc_->L.all(them_none) && z3::atleast(ours, 1)));
      solver_.add(z3::atmost(cellv, 1));
    }
    solver_.add(!enc_->royal_attacked(Q_, us));
    solver_.add(enc_->royal_attacked(Q_, them));
    if (g_.royals_apart) solver_.add(!enc_->royals_adjacent(Q_));
  }

  // The royal's conjuncts up front (all of them when eager).
  void seed(int board, const Board& b, int c) {
    for (int f = 0; f < g_.ncells; ++f) {
      if (!g_.inner[f]) continue;
      for (int t = 0; t < g_.nt; ++t) {
        if (t != g_.royal && !r_.eager) continue;
        std::set<int> tos;
        for (const Target& tg : g_.targets[c][f * g_.nt + t]) tos.insert(tg.to);
        for (int to : tos) add_conjunct(board, b, c, 0, t, f, to);
      }
    }
    if (r_.eager)
      for (int t = 0; t < g_.nt; ++t)
        if (hand_[c][t] > 0 && !g_.grid)
          for (int x = 0; x < g_.ncells; ++x) add_conjunct(board, b, c, 1, t, -1, x);
  }

  // "Not this action": kind 0 a move of type t from -> to, kind 1 a placement of t on to.
  bool add_conjunct(int board, const Board& b, int c, int kind, int t, int from, int to) {
    auto key = std::make_tuple(board, c, kind, t, from, to);
    if (!added_.insert(key).second) return false;
    z3::expr legal = kind == 0 ? enc_->legal_move(b, c, t, from, to)
                               : (hand_[c][t] > 0 ? enc_->legal_place(b, c, t, to) : enc_->L.F);
    if (!enc_->L.is_F(legal)) solver_.add(enc_->L.neg(legal));
    ++out_.conjuncts;
    return true;
  }

  // The conjuncts of the generator's legal actions in `e`'s position for board `board`.
  bool refine(Engine& e, int board, const Board& b) {
    std::vector<Action> acts;
    e.legal_actions(acts);
    int c = e.side_to_move() == Color::White ? 0 : 1;
    bool any = false;
    for (const Action& a : acts) {
      ActionInfo info = e.describe(a);
      if (info.steps.empty()) continue;
      const Step& s = info.steps[0];
      int t = type_of(g_, s.piece);
      if (t < 0) continue;
      if (s.kind == StepKind::Move && s.castle == Castle::None) {
        int f = g_.cell(s.from.x, s.from.y), to = g_.cell(s.to.x, s.to.y);
        if (f >= 0 && to >= 0 && add_conjunct(board, b, c, 0, t, f, to)) any = true;
      } else if (s.kind == StepKind::Place) {
        int to = g_.cell(s.to.x, s.to.y);
        if (to >= 0 && add_conjunct(board, b, c, 1, t, -1, to)) any = true;
      }
    }
    if (any) ++out_.refinements;
    return any;
  }

  bool on(const z3::model& m, const z3::expr& e) const {
    if (enc_->L.is_T(e)) return true;
    if (enc_->L.is_F(e)) return false;
    return m.eval(e, true).is_true();
  }

  std::string text_of(const z3::model& m, int& pieces) {
    pieces = 0;
    std::vector<std::pair<Coord, char>> placed;
    for (int x = 0; x < g_.ncells; ++x)
      for (int c = 0; c < 2; ++c)
        for (int t = 0; t < g_.nt; ++t)
          if (g_.inner[x] && on(m, enc_->pc(P_, x, c, t))) {
            char l = g_.letters[t];
            placed.push_back(
                {g_.coord[x], c ? static_cast<char>(std::tolower(static_cast<unsigned char>(l))) : l});
            ++pieces;
          }
    std::string hands[2];
    for (int c = 0; c < 2; ++c)
      for (int t = 0; t < g_.nt; ++t)
        for (int i = 0; i < hand_[c][t]; ++i)
          hands[c].push_back(c ? static_cast<char>(std::tolower(static_cast<unsigned char>(g_.letters[t])))
                               : g_.letters[t]);
    if (g_.grid) {
      ChessMePosition cp;
      cp.pieces = placed;
      cp.side = r_.side;
      cp.hand[0] = hands[0];
      cp.hand[1] = hands[1];
      return format_chessme(cp);
    }
    FenFields f;
    f.width = g_.width;
    f.height = g_.height;
    f.cells.assign(g_.width * g_.height, 0);
    for (const auto& [co, ch] : placed) f.at(co) = ch;
    f.has_reserve = g_.has_reserve;
    f.reserve = hands[0] + hands[1];
    f.side = r_.side;
    return format_fen(f);
  }

  z3::expr block(const z3::model& m) {
    std::vector<z3::expr> diff;
    for (int x = 0; x < g_.ncells; ++x)
      if (g_.inner[x])
        for (int c = 0; c < 2; ++c)
          for (int t = 0; t < g_.nt; ++t) {
            const z3::expr& v = enc_->pc(P_, x, c, t);
            diff.push_back(on(m, v) ? !v : v);
          }
    return enc_->L.any(diff);
  }

  void loop(const std::vector<z3::expr>& assumptions) {
    z3::expr_vector as(ctx_);
    for (const auto& a : assumptions) as.push_back(a);
    while (static_cast<int>(out_.found.size()) < r_.count) {
      auto now = std::chrono::steady_clock::now();
      if (now >= deadline_) {
        out_.timed_out = true;
        return;
      }
      if (deadline_ != std::chrono::steady_clock::time_point::max()) {
        z3::params prm(ctx_);
        prm.set("timeout",
                static_cast<unsigned>(std::max<int64_t>(
                    1, std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - now).count())));
        solver_.set(prm);
      }
      ++out_.solver_calls;
      z3::check_result res = solver_.check(as);
      if (res == z3::unsat) {
        out_.exhausted = true;
        return;
      }
      if (res == z3::unknown) {
        out_.timed_out = true;
        return;
      }
      z3::model m = solver_.get_model();
      Found fd;
      fd.position = text_of(m, fd.pieces);
      if (check_model(m, fd))
        out_.found.push_back(fd);
      else if (!refined_)
        ++out_.rejected;
      if (!refined_) solver_.add(block(m));
    }
  }

  // Verifies the model's position with the generator. Returns true when it satisfies the
  // goal; otherwise either adds the conjuncts of the legal actions it found (refined_) or
  // leaves the model to be blocked.
  bool check_model(const z3::model& m, Found& fd) {
    refined_ = false;
    Engine& e = *engine_;
    try {
      e.set_position(fd.position);
    } catch (const PositionError&) {
      return false;
    }
    if (r_.goal == Goal::MateIn1) {
      int f = -1, to = -1;
      for (const auto& mv : moves_)
        if (on(m, std::get<2>(mv))) f = std::get<0>(mv), to = std::get<1>(mv);
      char promo = 0;
      int src = -1, dst = -1;
      for (int t = 0; t < g_.nt; ++t) {
        if (on(m, enc_->pc(P_, f, us_, t))) src = t;
        if (on(m, enc_->pc(Q_, to, us_, t))) dst = t;
      }
      if (src >= 0 && dst >= 0 && dst != src) promo = g_.letters[dst];
      std::vector<Action> acts;
      e.legal_actions(acts);
      for (const Action& a : acts) {
        ActionInfo info = e.describe(a);
        if (info.steps.size() != 1 || info.steps[0].kind != StepKind::Move) continue;
        const Step& s = info.steps[0];
        if (s.from != g_.coord[f] || s.to != g_.coord[to] || s.promotion != promo) continue;
        std::string text = uci(info, e.chess960());
        e.apply(a);
        std::vector<Action> replies;
        e.legal_actions(replies);
        Status st = e.status();
        if (replies.empty() && st.in_check) {
          fd.move = text;
          fd.reason = st.reason;
          return true;
        }
        refined_ = refine(e, 1, Q_);
        return false;
      }
      return false;
    }
    Status st = e.status();
    fd.reason = st.reason;
    if (r_.goal == Goal::InCheck) return st.in_check;
    std::vector<Action> acts;
    e.legal_actions(acts);
    if (!acts.empty()) {
      refined_ = refine(e, 0, P_);
      return false;
    }
    if (r_.goal == Goal::Checkmated) return st.in_check;
    if (r_.goal == Goal::Stalemated) return !st.in_check;
    return true;
  }

  std::shared_ptr<const Program> p_;
  Request r_;
  Geo g_;
  z3::context ctx_;
  z3::solver solver_;
  std::unique_ptr<Encoder> enc_;
  std::unique_ptr<Engine> engine_;
  Board P_, Q_;
  int us_ = 0;
  int hand_[2][lang::kMaxTypes] = {};
  std::vector<std::tuple<int, int, z3::expr>> moves_;
  std::set<std::tuple<int, int, int, int, int, int>> added_;
  bool refined_ = false;
  Outcome out_;
  std::chrono::steady_clock::time_point deadline_;
};

}  // namespace

Outcome synthesize(std::shared_ptr<const lang::Program> program, const Request& request) {
  if (!program) throw std::invalid_argument("no program");
  if (request.count < 1) throw std::invalid_argument("--count must be at least 1");
  Synth s(std::move(program), request);
  return s.run();
}

bool verify(const std::shared_ptr<const lang::Program>& program, const std::string& position, Goal goal,
            const std::string& move) {
  auto e = lang::make_compiled_engine(program);
  e->set_position(position);
  std::vector<Action> acts;
  e->legal_actions(acts);
  Status st = e->status();
  switch (goal) {
    case Goal::InCheck:
      return st.in_check;
    case Goal::Checkmated:
      return acts.empty() && st.in_check;
    case Goal::Stalemated:
      return acts.empty() && !st.in_check;
    case Goal::NoLegalMove:
      return acts.empty();
    case Goal::MateIn1:
      for (const Action& a : acts) {
        std::string text = uci(e->describe(a), e->chess960());
        if (!move.empty() && text != move) continue;
        e->apply(a);
        std::vector<Action> replies;
        e->legal_actions(replies);
        bool mate = replies.empty() && e->status().in_check;
        e->undo();
        if (mate) return true;
      }
      return false;
  }
  return false;
}

}  // namespace arb::synth
