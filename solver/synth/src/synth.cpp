// Z3 position synthesis: the encoding generated from a compiled Program (see synth.hpp).
#include "arbiter/synth/synth.hpp"

#include <z3++.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

#include "arbiter/chessme_text.hpp"
#include "arbiter/fen.hpp"
#include "arbiter/nostress_text.hpp"
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

void parse_discard(const std::string& text, Request& request) {
  const size_t slash = text.find('/');
  if (slash == std::string::npos || text.find('/', slash + 1) != std::string::npos)
    throw std::invalid_argument(
        "--discard must read WHITE/BLACK, each side `-` (empty), `?` (chosen) or its "
        "cards bottom to top (PNBRQKA), e.g. RA/- or ?/Q; got `" +
        text + "`");
  for (int c = 0; c < 2; ++c) {
    const std::string side = c == 0 ? text.substr(0, slash) : text.substr(slash + 1);
    const std::string who = c == 0 ? "White's" : "Black's";
    if (side.empty())
      throw std::invalid_argument(
          "--discard: " + who + " pile is missing (write `-` for an empty pile, `?` " + "to let Z3 choose)");
    if (side == "?") {
      request.discard[c].reset();
      continue;
    }
    std::string cards;
    if (side != "-")
      for (char ch : side) {
        const char up = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
        if (nostress_card_index(up) < 0)
          throw std::invalid_argument("--discard: `" + std::string(1, ch) + "` in " + who +
                                      " pile is no card (P N B R Q K A; `-` alone for an empty pile, `?` " +
                                      "alone for a chosen one)");
        cards.push_back(up);
      }
    request.discard[c] = cards;
  }
}

namespace {

using lang::Program;

// A move of one piece type from one square: the target, the squares that must be empty on
// the way (a ride's or a lame leap's), and whether it may move there quietly or capture.
// A piece of one colour and type on one cell: a condition of a target or an attack.
struct Lit {
  int cell, c, t;
};
// A move of one piece type from one square: the target, the squares that must be empty on
// the way (a ride's or a lame leap's), whether it may move there quietly or capture, and
// Chess 2's conditions: `need` pieces present (a lender of borrowed movement), `own` a
// capture of an own piece (Betza `d`), `region` the destination inside the rectangle to an
// enemy royal piece (RULINGS 4.6).
struct Target {
  int to;
  std::vector<int> path;
  bool move, capture;
  bool own = false, region = false;
  std::vector<Lit> need;
  Target(int to_, std::vector<int> path_, bool move_, bool capture_, std::vector<Lit> need_ = {})
      : to(to_), path(std::move(path_)), move(move_), capture(capture_), need(std::move(need_)) {}
};
// An attack on a square: the attacker, the squares that must be empty, the pieces that must
// stand (`need`: a lender) and those that must not (`none`: a rampage's blockers, a royal
// beside a whirlwind).
struct Attack {
  int from, type;
  std::vector<int> path;
  std::vector<Lit> need, none;
  Attack(int from_, int type_, std::vector<int> path_, std::vector<Lit> need_ = {},
         std::vector<Lit> none_ = {})
      : from(from_), type(type_), path(std::move(path_)), need(std::move(need_)), none(std::move(none_)) {}
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
  int royal = -1;                 // the first royal type
  uint32_t royal_mask = 0;        // every royal type (bit per type)
  int royal_count[2] = {1, 1};    // at most this many royal pieces per colour (Two Kings: 2)
  uint32_t army[2] = {~0u, ~0u};  // the types each colour may hold
  // Capture rules (RULINGS 4.5-4.10): the enemy types type t may take, the distance from
  // which a type may be taken at most (0: any), the own types a Betza `d` leap may take.
  uint32_t take[lang::kMaxTypes] = {};
  int within[lang::kMaxTypes] = {};
  uint32_t own_takeable = 0;
  bool attacks_built = false;  // the attacks come from the check tables, not the targets
  const Program* prog = nullptr;
  bool adjacency = false, royals_apart = false, royal_safe = true, has_reserve = false;
  std::vector<std::vector<Target>> targets[2];  // [c][f * nt + t]
  std::vector<std::vector<Attack>> attacks[2];  // [by][k]
  std::vector<std::vector<int>> near;           // cells at king distance 1
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
  int dist(int a, int b) const {
    return std::max(std::abs(coord[a].x - coord[b].x), std::abs(coord[a].y - coord[b].y));
  }
  bool is_royal(int t) const { return (royal_mask >> t) & 1; }
  void finish() {
    for (int c = 0; c < 2 && !attacks_built; ++c) {
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
          if (b >= 0) near[a].push_back(b);
        }
  }
};

void count_set_letter(Geo& g, char ch) {
  int c = std::islower(static_cast<unsigned char>(ch)) ? 1 : 0;
  size_t t = g.letters.find(static_cast<char>(std::toupper(static_cast<unsigned char>(ch))));
  if (t != std::string::npos) ++g.set[c][t];
}

// The cells from f along direction d, at most `range` of them (0: to the edge).
std::vector<int> line_cells(const Geo& g, int f, int d, int range) {
  std::vector<int> out;
  for (int i = 1, x = g.coord[f].x + lang::kDirDx[d], y = g.coord[f].y + lang::kDirDy[d];
       range == 0 || i <= range; ++i, x += lang::kDirDx[d], y += lang::kDirDy[d]) {
    int to = g.cell(x, y);
    if (to < 0) break;
    out.push_back(to);
  }
  return out;
}

// Chess 2's primitives on a bounded board (RULINGS 4.5-4.10), read from the Program and its
// tables exactly as the generator reads them: the capture rules, the extra targets
// (limited lines, own captures, teleports, region moves, borrowed movement) and the attack
// relation (check tables, borrowed check, strike and capturing lines, whirlwinds, rampages).
template <class BB>
void build_chess2(const Program& p, const lang::BoardTables<BB>& T, Geo& g) {
  using Tg = lang::PieceProgram::Targets;
  uint32_t immune = 0, never = 0, only_royal = 0;
  for (int t = 0; t < g.nt; ++t) {
    const lang::PieceProgram& pp = p.types[t];
    if (pp.immune) immune |= 1u << t;
    if (pp.immune || pp.captured_by == Tg::None) never |= 1u << t;
    if (pp.captured_by == Tg::Royal) only_royal |= 1u << t;
    g.within[t] = pp.captured_within;
  }
  const uint32_t all = g.nt >= 32 ? ~0u : (1u << g.nt) - 1;
  for (int t = 0; t < g.nt; ++t) {
    const lang::PieceProgram& pp = p.types[t];
    uint32_t m = all & ~never;
    if (!pp.royal) m &= ~only_royal;
    if (pp.captures == Tg::Royal) m &= g.royal_mask;
    if (pp.captures == Tg::NonRoyal) m &= ~g.royal_mask;
    if (pp.captures == Tg::None) m = 0;
    g.take[t] = m;
  }
  g.own_takeable = all & ~g.royal_mask & ~immune;
  auto test = [](const BB& b, int s) { return lang::bb::test(b, s); };
  for (int c = 0; c < 2; ++c) {
    g.attacks[c].assign(g.ncells, {});
    for (int t = 0; t < g.nt; ++t) {
      const lang::PieceProgram& pp = p.types[t];
      const lang::PieceTables<BB>& pt = T.pieces[t];
      for (int f = 0; f < g.ncells; ++f) {
        std::vector<Target>& out = g.targets[c][f * g.nt + t];
        // Extra targets.
        for (const auto& l : pp.limited[c]) {
          std::vector<int> path;
          for (int to : line_cells(g, f, l.d, l.range)) {
            out.push_back(Target{to, path, l.move, l.capture});
            path.push_back(to);
          }
        }
        for (int to = 0; to < g.ncells; ++to) {
          if (test(pt.own_capture[c][f], to)) {
            Target tg{to, {}, false, false};
            tg.own = true;
            out.push_back(tg);
          }
          if ((pp.teleport_move || pp.teleport_capture) && test(pt.teleport_to[c], to) && to != f)
            out.push_back(Target{to, {}, pp.teleport_move, pp.teleport_capture});
          if (test(pt.region_move[c][f], to)) {
            Target tg{to, {}, true, false};
            tg.region = true;
            out.push_back(tg);
          }
        }
        // Borrowed movement: the lender's leaps and rides from f, with the lender beside.
        if (pp.borrows)
          for (int n = 0; n < g.ncells; ++n) {
            if (!test(pt.lenders[f], n)) continue;
            for (int u = 0; u < g.nt; ++u) {
              if (!((pp.borrows >> u) & 1)) continue;
              const lang::PieceTables<BB>& lt = T.pieces[u];
              Lit lender{n, c, u};
              for (int to = 0; to < g.ncells; ++to) {
                bool m = test(lt.leap_move[c][f], to), k = test(lt.leap_capture[c][f], to);
                if (m || k) out.push_back(Target{to, {}, m, k, {lender}});
                if (test(lt.check_from[c][to], f)) g.attacks[c][to].push_back(Attack{f, t, {}, {lender}, {}});
              }
              for (int d = 0; d < 8; ++d) {
                bool m = (lt.ride_move[c] >> d) & 1, k = (lt.ride_capture[c] >> d) & 1,
                     chk = (lt.ride_check[c] >> d) & 1;
                if (!m && !k && !chk) continue;
                std::vector<int> path;
                for (int to : line_cells(g, f, d, 0)) {
                  if (m || k) out.push_back(Target{to, path, m, k, {lender}});
                  if (chk) g.attacks[c][to].push_back(Attack{f, t, path, {lender}, {}});
                  path.push_back(to);
                }
              }
            }
          }
        // Attacks: the check tables (leaps and rides of the pieces that give check).
        for (int to = 0; to < g.ncells; ++to)
          if (test(pt.check_from[c][to], f)) g.attacks[c][to].push_back(Attack{f, t, {}});
        for (int d = 0; d < 8; ++d) {
          if (!((pt.ride_check[c] >> d) & 1)) continue;
          std::vector<int> path;
          for (int to : line_cells(g, f, d, 0)) {
            g.attacks[c][to].push_back(Attack{f, t, path});
            path.push_back(to);
          }
        }
        if (!pp.gives_check) continue;
        for (const auto* lines : {&pp.strike.lines[c], &pp.limited[c]})
          for (const auto& l : *lines) {
            if (!l.capture) continue;
            std::vector<int> path;
            for (int to : line_cells(g, f, l.d, l.range)) {
              g.attacks[c][to].push_back(Attack{f, t, path});
              path.push_back(to);
            }
          }
        if (pp.whirlwind()) {
          std::vector<Lit> none;
          if (pp.around.not_beside_own_royal)
            for (int n = 0; n < g.ncells; ++n)
              if (test(T.adjacent[f], n))
                for (int r = 0; r < g.nt; ++r)
                  if (g.is_royal(r)) none.push_back(Lit{n, c, r});
          for (int to = 0; to < g.ncells; ++to)
            if (test(pt.around[f], to)) g.attacks[c][to].push_back(Attack{f, t, {}, {}, none});
        }
        if (pp.rampage.reach > 0)
          for (int d = 0; d < 8; ++d) {
            if (!((pp.rampage.dirs[c] >> d) & 1)) continue;
            std::vector<int> path = line_cells(g, f, d, pp.rampage.reach);
            std::vector<Lit> none;
            for (int s : path) {
              for (int u = 0; u < g.nt; ++u) {
                if (pp.rampage.blocked_own_royal && g.is_royal(u)) none.push_back(Lit{s, c, u});
                bool blocked = ((pp.rampage.blocked_types >> u) & 1) ||
                               (pp.rampage.blocked_immune && ((immune >> u) & 1));
                if (blocked) none.push_back(Lit{s, c, u}), none.push_back(Lit{s, c ^ 1, u});
              }
              if (pp.rampage.self_beyond >= 0 && g.dist(f, s) > pp.rampage.self_beyond)
                none.push_back(Lit{s, c ^ 1, t});
            }
            for (int to : path) g.attacks[c][to].push_back(Attack{f, t, {}, {}, none});
          }
      }
    }
  }
  // Explosions (`remove-around ... when capture`, the removal effect triggered by a
  // capture): a capture whose explosion would remove one of the capturer's own royal
  // pieces attacks nothing, as in the generator (atomic chess's kings side by side).
  for (int c = 0; c < 2; ++c)
    for (int k = 0; k < g.ncells; ++k) {
      std::vector<Attack>& list = g.attacks[c][k];
      for (size_t i = 0; i < list.size();) {
        const lang::PieceProgram::Removal& rm = p.types[list[i].type].around;
        if (rm.trigger != lang::PieceProgram::Removal::Trigger::Capture) {
          ++i;
          continue;
        }
        if (rm.self && g.is_royal(list[i].type)) {
          list.erase(list.begin() + static_cast<std::ptrdiff_t>(i));
          continue;
        }
        const uint32_t keep = rm.kept | immune;
        for (int n = 0; n < g.ncells; ++n)
          if (n != k && g.dist(n, k) <= rm.reach)
            for (int r = 0; r < g.nt; ++r)
              if (g.is_royal(r) && !((keep >> r) & 1)) list[i].none.push_back(Lit{n, c, r});
        ++i;
      }
    }
  g.attacks_built = true;
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
        if (in_promo)
          g.promote[c][f * g.nt + t] = pp.promote_choices[c].empty() ? pp.promote_to : pp.promote_choices[c];
        if (!((g.army[c] >> t) & 1)) g.standable[c][f * g.nt + t] = g.placeable[c][f * g.nt + t] = 0;
      }
    g.must_promote.push_back(pp.must_promote);
    if (!pp.promote_to.empty()) g.promoters.push_back(t);
  }
  std::string lower;
  for (char ch : p.letters) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
  FenFields start =
      parse_fen(p.cards ? p.cards->board : lang::program_start(p, -1), p.width, p.height, p.letters + lower);
  for (char ch : start.cells)
    if (ch) count_set_letter(g, ch);
  for (char ch : start.reserve) count_set_letter(g, ch);
  if (p.chess2_primitives) build_chess2(p, T, g);
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
  for (int c = 0; c < 2; ++c) {
    int royals = 0;
    for (int t = 0; t < g.nt; ++t) {
      if (n[c][t] && !((g.army[c] >> t) & 1))
        throw std::invalid_argument(std::string("--material: ") + (c ? "Black" : "White") +
                                    "'s army has no " + g.letters[t]);
      if (g.is_royal(t)) royals += n[c][t];
    }
    if (royals < 1 || royals > g.royal_count[c])
      throw std::invalid_argument(std::string("--material: ") + (c ? "Black" : "White") + " needs " +
                                  (g.royal_count[c] == 1
                                       ? "exactly one royal piece"
                                       : "1 to " + std::to_string(g.royal_count[c]) + " royal pieces") +
                                  " on the board");
  }
}

// A position whose game is already over by midline invasion meets no goal (RULINGS 4.12).
bool over_by_invasion(const Program& p, const Status& st) {
  return p.invasion && st.end == Termination::RegionReached;
}

// No Stress Chess, judged by the card engine: the goal, or (mate-in-1) an action of the
// mover (named `want`, or any) after which the opponent is checkmated (advanced) or has lost
// the king (levels 1-3); `found` receives its text.
bool verify_card_position(const std::shared_ptr<const Program>& p, const std::string& text, Goal goal,
                          const std::string& want, std::string* found) {
  auto e = lang::make_compiled_engine(p);
  try {
    e->set_position(text);
  } catch (const PositionError&) {
    return false;
  }
  Status st = e->status();
  switch (goal) {
    case Goal::InCheck:
      return st.in_check;
    case Goal::Checkmated:
      return st.end == Termination::Checkmate;
    case Goal::Stalemated:
      return st.end == Termination::Stalemate;
    case Goal::NoLegalMove:
      return st.end == Termination::Checkmate || st.end == Termination::Stalemate;
    case Goal::MateIn1: {
      std::vector<Action> acts;
      e->legal_actions(acts);
      const Result win = e->side_to_move() == Color::White ? Result::WhiteWins : Result::BlackWins;
      const bool advanced = p->cards->level == "advanced";
      for (const Action& a : acts) {
        std::string t = uci(e->describe(a), e->chess960());
        if (!want.empty() && t != want) continue;
        e->apply(a);
        Status after = e->status();
        e->undo();
        if (after.result == win &&
            after.end == (advanced ? Termination::Checkmate : Termination::RoyalCapture)) {
          if (found) *found = t;
          return true;
        }
      }
      return false;
    }
  }
  return false;
}

// The program without its card layer: the board's rules alone, on the bitboard generator
// (No Stress Chess's refinements list every move of the board, whatever the cards).
std::shared_ptr<const Program> board_program(const std::shared_ptr<const Program>& p) {
  if (!p->cards) return p;
  auto q = std::make_shared<Program>(*p);
  q->cards.reset();
  q->turn = {lang::PhaseProgram{lang::PhaseKind::Action, false, -1}};  // as the card engine's board
  q->action_move = true;
  q->action_place = false;
  q->start_text = p->cards->board;
  return q;
}

// --timeout passed while the encoding was being built or refined (Synth::checkpoint).
struct TimedOut {};

class Synth {
 public:
  Synth(std::shared_ptr<const Program> p, const Request& r)
      : p_(std::move(p)), r_(r), solver_(ctx_), engine_(lang::make_compiled_engine(board_program(p_))) {
    // The clock runs from here: building the encoding counts against --timeout too.
    t0_ = std::chrono::steady_clock::now();
    deadline_ = r_.timeout_seconds > 0
                    ? t0_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                std::chrono::duration<double>(r_.timeout_seconds))
                    : std::chrono::steady_clock::time_point::max();
    build();
  }

  // The encoding evaluated on one position against the generator (bounded boards): the
  // check of the side to move, and the side to move's actions (moves, strikes, whirlwinds,
  // rampages) the encoding calls legal against those the generator lists. Each difference
  // is one line of the result.
  std::vector<std::string> compare(const std::string& position) {
    std::vector<std::string> out;
    const Program& p = *p_;
    std::string lower;
    for (char ch : p.letters)
      lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
    FenFields f = parse_fen(position, p.width, p.height, p.letters + lower);
    const Logic& L = enc_->L;
    Board b;
    for (int x = 0; x < g_.ncells; ++x) {
      char ch = f.at(g_.coord[x]);
      for (int c = 0; c < 2; ++c)
        for (int t = 0; t < g_.nt; ++t) {
          char l =
              c ? static_cast<char>(std::tolower(static_cast<unsigned char>(g_.letters[t]))) : g_.letters[t];
          b.pc.push_back(ch == l ? L.T : L.F);
        }
      b.col.push_back(ch && std::isupper(static_cast<unsigned char>(ch)) ? L.T : L.F);
      b.col.push_back(ch && std::islower(static_cast<unsigned char>(ch)) ? L.T : L.F);
      b.occ.push_back(ch ? L.T : L.F);
    }
    auto holds = [&](const z3::expr& e) { return e.simplify().is_true(); };
    Engine& e = *engine_;
    e.set_position(position);
    const int c = e.side_to_move() == Color::White ? 0 : 1;
    if (holds(enc_->royal_attacked(b, c)) != e.status().in_check) out.push_back("in-check differs");
    std::set<std::tuple<int, int, int>> gen, enc;  // (kind, from, to or direction)
    std::vector<Action> acts;
    e.legal_actions(acts);
    for (const Action& a : acts) {
      ActionInfo info = e.describe(a);
      const Step& st = info.steps[0];
      if (st.castle != Castle::None || st.kind == StepKind::Place) continue;
      int t = type_of(g_, st.piece), fr = g_.cell(st.from.x, st.from.y), to = g_.cell(st.to.x, st.to.y);
      const lang::PieceProgram& pp = p.types[t];
      if (st.kind == StepKind::Remove && st.to == st.from)  // a whirlwind
        gen.insert({3, fr, fr});
      else if (st.kind == StepKind::Remove)  // a strike
        gen.insert({2, fr, to});
      else if (pp.rampage.reach > 0 && !st.removed.empty() &&
               !(st.removed.size() == 1 && st.removed[0].at == st.to && captures_to(c, t, fr, to)))
        gen.insert({4, fr,
                    lang::unit_dir((st.to.x > st.from.x) - (st.to.x < st.from.x),
                                   (st.to.y > st.from.y) - (st.to.y < st.from.y))});
      else
        gen.insert({0, fr, to});
    }
    for (int fr = 0; fr < g_.ncells; ++fr)
      for (int t = 0; t < g_.nt; ++t) {
        if (L.is_F(enc_->pc(b, fr, c, t))) continue;
        std::set<int> tos;
        for (const Target& tg : g_.targets[c][fr * g_.nt + t]) tos.insert(tg.to);
        for (int to : tos)
          if (holds(enc_->legal_move(b, c, t, fr, to))) enc.insert({0, fr, to});
        const lang::PieceProgram& pp = p.types[t];
        for (const auto& l : pp.strike.lines[c])
          for (int to : line_cells(g_, fr, l.d, l.range))
            if (holds(enc_->legal_strike(b, c, t, fr, to))) enc.insert({2, fr, to});
        if (holds(enc_->legal_whirl(b, c, t, fr))) enc.insert({3, fr, fr});
        for (int d = 0; d < 8; ++d)
          if (holds(enc_->legal_rampage(b, c, t, fr, d))) enc.insert({4, fr, d});
      }
    auto name = [&](const std::tuple<int, int, int>& k) {
      auto [kind, fr, to] = k;
      static const char* kinds[] = {"move", "place", "strike", "whirlwind", "rampage"};
      std::string s = std::string(kinds[kind]) + " " + square_name(g_.coord[fr]);
      s += kind == 4 ? " dir " + std::to_string(to) : " " + square_name(g_.coord[to]);
      return s;
    };
    for (const auto& k : gen)
      if (!enc.count(k)) out.push_back("generator only: " + name(k));
    for (const auto& k : enc)
      if (!gen.count(k)) out.push_back("encoding only: " + name(k));
    return out;
  }

  Outcome run() {
    const auto t0 = t0_;
    try {
      search();
    } catch (const TimedOut&) {
      out_.timed_out = true;
    }
    out_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    // The mate-in-1 selector states every action of the mover (moves, placements, Chess 2's
    // strikes, whirlwinds, rampages and the king-turn), so unsat is a proof; but a model
    // whose chosen action the generator did not confirm is blocked as a whole board
    // (another action might have mated), and then unsat proves nothing.
    if (r_.goal == Goal::MateIn1 && out_.rejected > 0 && !cards_)
      out_.incomplete = std::to_string(out_.rejected) + " board(s) blocked after an unconfirmed mating move";
    return out_;
  }

  // Throws TimedOut once the deadline has passed: called through the building and the
  // refinement of the encoding, so that --timeout holds there as it does in Z3.
  void checkpoint() const {
    if (deadline_ != std::chrono::steady_clock::time_point::max() &&
        std::chrono::steady_clock::now() >= deadline_)
      throw TimedOut{};
  }

 private:
  void search() {
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
  }

  void build() {
    const Program& p = *p_;
    g_.nt = p.grid ? static_cast<int>(p.grid->types.size()) : p.ntypes;
    for (int t = 0; t < g_.nt; ++t)
      g_.letters.push_back(p.grid ? p.grid->types[t].letter : p.types[t].letter);
    g_.royal = p.grid ? p.grid->royal_type : p.royal_type;
    if (g_.royal < 0) throw std::invalid_argument("synthesis needs a royal piece type");
    g_.prog = &p;
    if (r_.goal == Goal::MateIn1 && !p.grid)
      for (int t = 0; t < p.ntypes; ++t)
        if (p.types[t].explodes())
          throw std::invalid_argument(
              "mate-in-1 synthesis does not state explosions (`remove-around ... when capture`) yet; "
              "checkmated, stalemated, in-check and no-legal-move do");
    if (p.grid) {
      g_.royal_mask = 1u << g_.royal;
    } else {
      g_.royal_mask = p.royal_types ? p.royal_types : 1u << g_.royal;
      for (int c = 0; c < 2; ++c) {
        g_.royal_count[c] = p.royal_count[c];
        if (!p.army[c].empty()) g_.army[c] = p.army_types[c];
      }
    }
    if (p.cards) {
      cards_ = p.cards.get();
      advanced_ = cards_->level == "advanced";
      if (!advanced_ && r_.goal != Goal::MateIn1)
        throw std::invalid_argument(
            "No Stress Chess level " + cards_->level +
            " has no check, checkmate or stalemate (RULINGS 3.6): its goal is mate-in-1, a capture of the "
            "king with a card of the hand");
      if (r_.smallest) throw std::invalid_argument("--smallest is not stated for No Stress Chess");
    } else if (r_.discard[0] || r_.discard[1]) {
      throw std::invalid_argument("--discard: only No Stress Chess has discard piles");
    }
    g_.royal_safe = p.royal_safe;
    g_.royals_apart = p.royals_apart;
    g_.has_reserve = p.has_reserve;
    {
      // The encoding grows with the window's squares (a 64x64 ChessMe window took 2.6 GB
      // and half a minute before the first check): at most kMaxWindowSquares.
      const int ww = r_.window_w > 0 ? r_.window_w : p.grid ? 6 : p.width;
      const int wh = r_.window_h > 0 ? r_.window_h : p.grid ? 6 : p.height;
      if (ww * wh > kMaxWindowSquares)
        throw std::invalid_argument("--window " + std::to_string(ww) + "x" + std::to_string(wh) +
                                    ": at most " + std::to_string(kMaxWindowSquares) +
                                    " squares (e.g. 24x24)");
    }
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
    // No Stress Chess's text (RULINGS 3.6, 3.7): no pawn on its own first rank, and at the
    // advanced level none on the last rank either (promotion is forced).
    if (cards_) {
      int pawn = type_of(g_, 'P');
      for (int c = 0; pawn >= 0 && c < 2; ++c)
        for (int x = 0; x < g_.ncells; ++x) {
          int y = g_.coord[x].y;
          bool own_first = y == (c == 0 ? 1 : g_.height), last = y == (c == 0 ? g_.height : 1);
          if (own_first || (advanced_ && last)) g_.standable[c][x * g_.nt + pawn] = 0;
        }
    }
    g_.finish();
    checkpoint();
    enc_ = std::make_unique<Encoder>(g_, ctx_);
    us_ = r_.side == Color::White ? 0 : 1;

    // Hands / reserves (No Stress Chess: cards, read by card_hands()).
    if (cards_) card_hands();
    for (char ch : cards_ ? std::string() : r_.hands) {
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

    checkpoint();
    P_ = enc_->vars("p");
    checkpoint();
    position_constraints(P_, true);
    checkpoint();
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
        if (cards_ && !advanced_) {
          build_king_capture();
          break;
        }
        build_mate_in_1();
        seed(1, Q_, them);
        break;
    }
  }

  // No Stress Chess's card zones (RULINGS 3.2, 3.4, 3.5). The side to move has drawn and
  // acts, so it holds H + 1 cards: `--hands` gives them, else Z3 chooses how many of each
  // kind it holds. The discard piles are given (`--discard`), or Z3 chooses each one's top
  // piece card (or an empty pile) when the mover may hold an Again card; they are empty
  // otherwise. The other side's H cards and the pile are unknown (`?N`): they do not change
  // the mover's actions. The mover may move a piece type iff a card of its hand names it: a
  // piece card its type, an Again card the newest piece card of the own discard pile and
  // that of the opponent's (Again cards skipped). Every kind's cards in the known zones stay
  // within the deck's count of that kind.
  void card_hands() {
    const int H = cards_->hand_size, them = us_ ^ 1;
    constexpr int kAgain = 6;  // index of 'A' in PNBRQKA
    std::array<int, 7> deck{};
    for (char ch : cards_->deck)
      if (int k = nostress_card_index(ch); k >= 0) ++deck[k];
    std::string given[2];
    for (char ch : r_.hands) {
      if (ch == '-' || ch == '/' || ch == ' ') continue;
      char up = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
      if (nostress_card_index(up) < 0)
        throw std::invalid_argument(std::string("--hands: no card `") + ch + "` (P N B R Q K A)");
      given[std::islower(static_cast<unsigned char>(ch)) ? 1 : 0].push_back(up);
    }
    if (!given[them].empty() && static_cast<int>(given[them].size()) != H)
      throw std::invalid_argument("--hands: the side not to move holds exactly " + std::to_string(H) +
                                  " cards at level " + cards_->level);
    if (!given[us_].empty() && static_cast<int>(given[us_].size()) != H + 1)
      throw std::invalid_argument("--hands: the side to move has drawn and holds exactly " +
                                  std::to_string(H + 1) + " cards at level " + cards_->level);
    card_hand_[them] = given[them];
    card_hand_[us_] = given[us_];
    std::array<int, 7> known{};
    for (int c = 0; c < 2; ++c) {
      for (char ch : given[c]) ++known[nostress_card_index(ch)];
      if (!r_.discard[c]) continue;
      for (char ch : *r_.discard[c]) {
        int k = nostress_card_index(ch);
        if (k < 0)
          throw std::invalid_argument(std::string("--discard: no card `") + ch + "` (P N B R Q K A)");
        ++known[k];
      }
      disc_[c] = *r_.discard[c];
      disc_given_[c] = true;
    }
    for (int k = 0; k < 7; ++k)
      if (known[k] > deck[k])
        throw std::invalid_argument(std::string("--hands and --discard hold ") + std::to_string(known[k]) +
                                    " " + kNoStressCardKinds[k] + " cards; the deck has " +
                                    std::to_string(deck[k]) + " (RULINGS 3.2)");
    // The mover's hand: copies_[k][i] holds when it has more than i cards of kind k.
    std::array<z3::expr, 7> holds{ctx_.bool_val(false), ctx_.bool_val(false), ctx_.bool_val(false),
                                  ctx_.bool_val(false), ctx_.bool_val(false), ctx_.bool_val(false),
                                  ctx_.bool_val(false)};
    std::vector<z3::expr_vector> per_kind;  // [k]: the known-zone cards of kind k Z3 chooses
    for (int k = 0; k < 7; ++k) per_kind.emplace_back(ctx_);
    if (!given[us_].empty()) {
      for (int k = 0; k < 7; ++k)
        holds[k] = ctx_.bool_val(given[us_].find(kNoStressCardKinds[k]) != std::string::npos);
    } else {
      z3::expr_vector all(ctx_);
      for (int k = 0; k < 7; ++k) {
        for (int i = 0; i <= H; ++i) {
          z3::expr v =
              ctx_.bool_const(("hand_" + std::string(1, kNoStressCardKinds[k]) + std::to_string(i)).c_str());
          if (i > 0) solver_.add(z3::implies(v, copies_[k].back()));
          copies_[k].push_back(v);
          all.push_back(v);
          per_kind[k].push_back(v);
        }
        holds[k] = copies_[k][0];
        card_vars_.push_back(holds[k]);
      }
      solver_.add(z3::atleast(all, H + 1));
      solver_.add(z3::atmost(all, H + 1));
    }
    // The discard piles' newest piece cards: top_[c][t] names piece type t.
    // (Only a mate-in-1 reads the mover's cards: checkmate and stalemate are judged whatever
    // the cards, RULINGS 3.7.)
    const bool may_again =
        r_.goal == Goal::MateIn1 &&
        (given[us_].empty() ? deck[kAgain] - known[kAgain] > 0 : given[us_].find('A') != std::string::npos);
    for (int c = 0; c < 2; ++c) {
      char newest = 0;
      for (size_t i = disc_[c].size(); i-- > 0;)
        if (disc_[c][i] != 'A') {
          newest = disc_[c][i];
          break;
        }
      z3::expr_vector chosen(ctx_);
      for (int t = 0; t < g_.nt; ++t) {
        int k = nostress_card_index(g_.letters[t]);
        const bool read = c == us_ ? cards_->again_own : cards_->again_opponent;
        if (disc_given_[c] || !may_again || !read || k < 0 || k == kAgain) {
          top_[c].push_back(ctx_.bool_val(disc_given_[c] && k >= 0 && newest == g_.letters[t]));
          continue;
        }
        z3::expr v = ctx_.bool_const(((c ? "btop_" : "wtop_") + std::string(1, g_.letters[t])).c_str());
        top_[c].push_back(v);
        chosen.push_back(v);
        card_vars_.push_back(v);
        per_kind[k].push_back(v);
        // A chosen pile is empty unless an Again card in hand reads it.
        solver_.add(z3::implies(v, holds[kAgain]));
      }
      if (!chosen.empty()) {
        solver_.add(z3::atmost(chosen, 1));
        disc_chosen_[c] = true;
      }
    }
    for (int k = 0; k < 7; ++k)
      if (!per_kind[k].empty()) solver_.add(z3::atmost(per_kind[k], deck[k] - known[k]));
    for (int t = 0; t < g_.nt; ++t) {
      int k = nostress_card_index(g_.letters[t]);
      std::vector<z3::expr> named;
      if (k >= 0 && k != kAgain) named.push_back(holds[k]);
      std::vector<z3::expr> piles;
      if (cards_->again_own) piles.push_back(top_[us_][t]);
      if (cards_->again_opponent) piles.push_back(top_[them][t]);
      named.push_back(enc_->L.all({holds[kAgain], enc_->L.any(piles)}));
      card_.push_back(enc_->L.any(named));
    }
    // What an unsat answer quantified over.
    std::vector<std::string> scope;
    if (given[us_].empty() && r_.goal == Goal::MateIn1)
      scope.push_back("every " + std::to_string(H + 1) + "-card hand of " + (us_ ? "Black" : "White"));
    if (disc_chosen_[0] || disc_chosen_[1]) {
      std::string who = disc_chosen_[0] && disc_chosen_[1] ? "White and Black"
                        : disc_chosen_[0]                  ? "White"
                                                           : "Black";
      scope.push_back("every discard pile of " + who + " (an Again card reads only the newest piece card)");
    }
    for (size_t i = 0; i < scope.size(); ++i) out_.scope += (i ? ", " : "") + scope[i];
  }

  // Levels 1-3 (RULINGS 3.6): capturing the king wins at once, so "mate in one" is a capture
  // of the enemy king by a piece of a kind the mover's cards name.
  void build_king_capture() {
    const int us = us_, them = us_ ^ 1;
    z3::expr_vector ways(ctx_);
    for (int f = 0; f < g_.ncells; ++f)
      for (int k = 0; k < g_.ncells; ++k)
        for (int s = 0; s < g_.nt; ++s) {
          if (!g_.inner[f] || !g_.inner[k] || f == k) continue;
          z3::expr r = enc_->reach(P_, us, s, f, k);
          if (enc_->L.is_F(r)) continue;
          for (int t = 0; t < g_.nt; ++t)
            if (g_.is_royal(t))
              ways.push_back(enc_->L.all({card_[s], enc_->pc(P_, f, us, s), enc_->pc(P_, k, them, t), r}));
        }
    solver_.add(ways.empty() ? ctx_.bool_val(false) : z3::mk_or(ways));
  }

  // Every royal piece of colour c on the enemy half (the generator's invaded()).
  z3::expr invaded(const Board& b, int c) {
    std::vector<z3::expr> home;
    const int h = g_.height, half = h / 2;
    for (int x = 0; x < g_.ncells; ++x) {
      int y = g_.coord[x].y - 1;
      bool enemy_half = c == 0 ? y >= h - half : y < half;
      if (enemy_half) continue;
      for (int t = 0; t < g_.nt; ++t)
        if (g_.is_royal(t)) home.push_back(enc_->pc(b, x, c, t));
    }
    return enc_->L.neg(enc_->L.any(home));
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
        for (int t = 0; t < g_.nt; ++t)
          if (g_.inner[x] && g_.is_royal(t) && ((g_.army[c] >> t) & 1)) v.push_back(enc_->pc(b, x, c, t));
      // One royal piece, or (several royal pieces, RULINGS 4.9) one up to the army's count,
      // as the generator accepts.
      solver_.add(z3::atmost(v, g_.royal_count[c]));
      solver_.add(z3::atleast(v, 1));
    }
    if (g_.royals_apart) solver_.add(!enc_->royals_adjacent(b));
    if (!with_material) return;
    // The generator refuses the side not to move in check only where royal pieces are safe
    // and not captured to win (No Stress Chess levels 1-3 allow it).
    if (g_.royal_safe && !p_->royal_capture) solver_.add(!enc_->royal_attacked(b, us_ ^ 1));
    // Midline invasion (RULINGS 4.3, 4.12): a position in which the side that just moved has
    // all its royal pieces on the enemy half is over, so it meets no goal.
    if (p_->invasion) solver_.add(!invaded(b, us_ ^ 1));
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
          for (char pt : p_->grid ? std::string() : p_->types[s].promote_to + p_->types[s].promote_choices[c])
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

  // Mate in one: board Q after one action of the side to move (us), tied to P by a one-hot
  // selector over every action of the mover (moves, strikes, whirlwinds, rampages); with a
  // king-turn (RULINGS 4.9, or a ruleset's own royal-move phase) a board M after the normal
  // action, then an optional second selector over the royal pieces' actions from M to Q.
  // Each action leaves the mover's royal pieces safe; Q has them in check.
  void build_mate_in_1() {
    // Q and M on every cell: the mating action may leave the window.
    // (ChessMe's grid and No Stress Chess keep the window's cells, as before.)
    const bool whole = !p_->grid && !cards_;
    Q_ = enc_->vars("q", whole);
    const int us = us_, them = us_ ^ 1;
    const Program& p = *p_;
    uint32_t mask = 0, royal = 0;
    for (int t = 0; t < g_.nt; ++t)
      if ((g_.army[us] >> t) & 1) {
        mask |= 1u << t;
        if (g_.is_royal(t)) royal |= 1u << t;
      }
    const bool second =
        !p.grid && !cards_ &&
        (p.king_turn[us] || (p.turn.size() == 2 && p.turn[1].kind == lang::PhaseKind::RoyalMove));
    if (!second) {
      encode_action(P_, Q_, mask, enc_->L.T, "");
    } else {
      M_ = enc_->vars("m", whole);
      encode_action(P_, M_, mask, enc_->L.T, "");
      // The normal action alone is legal; one that wins by midline invasion ends the game
      // (then M is Q, which must not be invaded either).
      solver_.add(!enc_->royal_attacked(M_, us));
      if (p_->invasion) solver_.add(!invaded(M_, us));
      if (g_.royals_apart) solver_.add(!enc_->royals_adjacent(M_));
      encode_action(M_, Q_, royal, ctx_.bool_const("king_turn"), "k");
    }
    solver_.add(!enc_->royal_attacked(Q_, us));
    solver_.add(enc_->royal_attacked(Q_, them));
    if (p_->invasion) solver_.add(!invaded(Q_, us));
    if (g_.royals_apart) solver_.add(!enc_->royals_adjacent(Q_));
  }

  // One action of the mover from board A to board B by a piece of a type in `mask`, when
  // `active` holds (else B is A): a one-hot selector over moves (from, to), placements from
  // the mover's hand and Chess 2's actions in place (strikes, whirlwinds, rampages), each
  // tied to the cells it changes; every other cell keeps its piece. The mover's safety is
  // stated on B by the caller.
  void encode_action(const Board& A, const Board& B, uint32_t mask, const z3::expr& active,
                     const std::string& prefix) {
    const bool step0 = prefix.empty();
    const int us = us_, them = us_ ^ 1;
    const Logic& L = enc_->L;
    std::vector<std::vector<z3::expr>> touch(g_.ncells), from_terms(g_.ncells), to_terms(g_.ncells);
    z3::expr_vector all(ctx_);
    auto name = [&](const char* kind, int a, int b, int c) {
      return ctx_.bool_const(
          (prefix + kind + "_" + std::to_string(a) + "_" + std::to_string(b) + "_" + std::to_string(c))
              .c_str());
    };
    for (int f = 0; f < g_.ncells; ++f) {
      checkpoint();
      std::set<int> tos;
      for (int t = 0; t < g_.nt; ++t)
        if (((mask >> t) & 1) && !L.is_F(enc_->pc(A, f, us, t)))
          for (const Target& tg : g_.targets[us][f * g_.nt + t]) tos.insert(tg.to);
      for (int to : tos) {
        std::vector<z3::expr> how;
        std::vector<std::pair<z3::expr, z3::expr>> arrivals;  // (here, what may arrive)
        std::vector<z3::expr> not_here;                       // the types that cannot make this move
        for (int s = 0; s < g_.nt; ++s) {
          z3::expr here = enc_->pc(A, f, us, s);
          if (L.is_F(here)) continue;
          z3::expr r = ((mask >> s) & 1) ? enc_->reach(A, us, s, f, to) : L.F;
          // No Stress Chess: a move of a kind the mover's cards name (RULINGS 3.4).
          if (cards_) r = L.all({card_[s], r});
          if (L.is_F(r)) {
            not_here.push_back(here);
            continue;
          }
          how.push_back(L.all({here, r}));
          // What arrives on `to`.
          std::string allowed;
          const std::string& promo = g_.promote[us][to * g_.nt + s];
          if (promo.empty() || !g_.must_promote[s]) allowed.push_back(static_cast<char>(s));
          allowed += promo;
          std::vector<z3::expr> arrive;
          for (char a : allowed) arrive.push_back(enc_->pc(B, to, us, a));
          arrivals.push_back({here, L.any(arrive)});
        }
        if (how.empty()) continue;
        z3::expr m = name("mv", f, to, 0);
        if (step0) moves_.push_back({f, to, m});
        all.push_back(m);
        from_terms[f].push_back(m);
        to_terms[to].push_back(m);
        touch[f].push_back(m);
        touch[to].push_back(m);
        solver_.add(z3::implies(m, L.any(how)));
        for (const z3::expr& here : not_here) solver_.add(z3::implies(m, !here));
        for (const auto& [here, arrive] : arrivals) solver_.add(z3::implies(m && here, arrive));
      }
      if (p_->grid || cards_) continue;
      // Chess 2's actions in place: the board after each, from the encoder.
      for (int t = 0; t < g_.nt; ++t) {
        if (!((mask >> t) & 1) || L.is_F(enc_->pc(A, f, us, t))) continue;
        const lang::PieceProgram& pp = p_->types[t];
        auto in_place = [&](int kind, int to, const z3::expr& legal, const Board& after,
                            const std::vector<int>& cells) {
          if (L.is_F(legal)) return;
          z3::expr v = name(kind == 2 ? "st" : kind == 3 ? "ww" : "rp", t, f, to);
          all.push_back(v);
          std::vector<z3::expr> conj{legal};
          for (int x : cells) {
            touch[x].push_back(v);
            for (int c = 0; c < 2; ++c)
              for (int u = 0; u < g_.nt; ++u) {
                const z3::expr &q = enc_->pc(B, x, c, u), &a = enc_->pc(after, x, c, u);
                if (L.is_F(a))
                  conj.push_back(L.neg(q));
                else if (L.is_T(a))
                  conj.push_back(q);
                else
                  conj.push_back(q == a);
              }
          }
          solver_.add(z3::implies(v, L.all(conj)));
        };
        std::set<int> struck;
        for (const auto& l : pp.strike.lines[us])
          for (int to : line_cells(g_, f, l.d, l.range)) {
            if (!struck.insert(to).second) continue;
            Board after;
            z3::expr legal = enc_->legal_strike(A, us, t, f, to, &after);
            in_place(2, to, legal, after, {to});
          }
        if (pp.whirlwind()) {
          Board after;
          z3::expr legal = enc_->legal_whirl(A, us, t, f, &after);
          std::vector<int> cells;
          for (int x = 0; x < g_.ncells; ++x)
            if (x != f && g_.dist(f, x) <= pp.around.reach) cells.push_back(x);
          in_place(3, f, legal, after, cells);
        }
        for (int d = 0; d < 8 && pp.rampage.reach > 0; ++d) {
          std::vector<int> path = line_cells(g_, f, d, pp.rampage.reach);
          if (path.empty()) continue;
          Board after;
          z3::expr legal = enc_->legal_rampage(A, us, t, f, d, &after);
          path.push_back(f);
          in_place(4, d, legal, after, path);
        }
      }
    }
    // Placements (drops) from the mover's hand on an empty square of the type's zone.
    for (int t = 0; t < g_.nt && !p_->grid && !cards_; ++t) {
      if (!((mask >> t) & 1) || hand_[us][t] <= 0) continue;
      for (int to = 0; to < g_.ncells; ++to) {
        if (!g_.placeable[us][to * g_.nt + t] || L.is_T(A.occ[to])) continue;
        z3::expr v = name("pl", t, to, 0);
        all.push_back(v);
        touch[to].push_back(v);
        std::vector<z3::expr> conj{L.neg(A.occ[to])};
        for (int c = 0; c < 2; ++c)
          for (int u = 0; u < g_.nt; ++u) {
            const z3::expr& q = enc_->pc(B, to, c, u);
            conj.push_back(c == us && u == t ? q : L.neg(q));
          }
        solver_.add(z3::implies(v, L.all(conj)));
      }
    }
    if (all.empty()) {
      solver_.add(!active);
    } else {
      solver_.add(z3::atmost(all, 1));
      solver_.add(z3::implies(active, z3::mk_or(all)));
      if (!L.is_T(active)) solver_.add(z3::implies(!active, !z3::mk_or(all)));
    }
    for (int x = 0; x < g_.ncells; ++x) {
      z3::expr fr = L.any(from_terms[x]), to = L.any(to_terms[x]), touched = L.any(touch[x]);
      std::vector<z3::expr> same, none, them_none;
      z3::expr_vector ours(ctx_), cellv(ctx_);
      for (int c = 0; c < 2; ++c)
        for (int t = 0; t < g_.nt; ++t) {
          const z3::expr &q = enc_->pc(B, x, c, t), &pp = enc_->pc(A, x, c, t);
          same.push_back(q == pp);
          none.push_back(!q);
          if (c == them) them_none.push_back(!q);
          if (c == us) ours.push_back(q);
          cellv.push_back(q);
        }
      solver_.add(z3::implies(!touched, L.all(same)));
      if (!L.is_F(fr)) solver_.add(z3::implies(fr, L.all(none)));
      if (!L.is_F(to)) solver_.add(z3::implies(to, L.all(them_none) && z3::atleast(ours, 1)));
      solver_.add(z3::atmost(cellv, 1));
    }
  }

  // The royal's conjuncts up front (all of them when eager).
  void seed(int board, const Board& b, int c) {
    for (int f = 0; f < g_.ncells; ++f) {
      if (!g_.inner[f]) continue;
      for (int t = 0; t < g_.nt; ++t) {
        if (!g_.is_royal(t) && !r_.eager) continue;
        if (!((g_.army[c] >> t) & 1)) continue;
        std::set<int> tos;
        for (const Target& tg : g_.targets[c][f * g_.nt + t]) tos.insert(tg.to);
        for (int to : tos) add_conjunct(board, b, c, 0, t, f, to);
        if (!g_.prog->grid) {
          const lang::PieceProgram& pp = g_.prog->types[t];
          if (pp.whirlwind()) add_conjunct(board, b, c, 3, t, f, f);
          for (int d = 0; d < 8 && pp.rampage.reach > 0; ++d) add_conjunct(board, b, c, 4, t, f, d);
          for (const auto& l : pp.strike.lines[c])
            for (int to : line_cells(g_, f, l.d, l.range)) add_conjunct(board, b, c, 2, t, f, to);
        }
      }
    }
    if (r_.eager)
      for (int t = 0; t < g_.nt; ++t)
        if (hand_[c][t] > 0 && !g_.grid)
          for (int x = 0; x < g_.ncells; ++x) add_conjunct(board, b, c, 1, t, -1, x);
  }

  // "Not this action": kind 0 a move of type t from -> to, 1 a placement of t on to, and
  // Chess 2's actions in place: 2 a strike from -> to, 3 a whirlwind on from, 4 a rampage
  // from `from` along direction `to`.
  bool add_conjunct(int board, const Board& b, int c, int kind, int t, int from, int to) {
    checkpoint();
    auto key = std::make_tuple(board, c, kind, t, from, to);
    if (!added_.insert(key).second) return false;
    z3::expr legal = enc_->L.F;
    switch (kind) {
      case 0:
        legal = enc_->legal_move(b, c, t, from, to);
        break;
      case 1:
        if (hand_[c][t] > 0) legal = enc_->legal_place(b, c, t, to);
        break;
      case 2:
        legal = enc_->legal_strike(b, c, t, from, to);
        break;
      case 3:
        legal = enc_->legal_whirl(b, c, t, from);
        break;
      case 4:
        legal = enc_->legal_rampage(b, c, t, from, to);
        break;
    }
    if (!enc_->L.is_F(legal)) solver_.add(enc_->L.neg(legal));
    ++out_.conjuncts;
    return true;
  }

  // Whether type t's plain movement may take a piece on `to` from `from`.
  bool captures_to(int c, int t, int f, int to) const {
    for (const Target& tg : g_.targets[c][f * g_.nt + t])
      if (tg.to == to && (tg.capture || tg.own)) return true;
    return false;
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
      int f = g_.cell(s.from.x, s.from.y), to = g_.cell(s.to.x, s.to.y);
      const lang::PieceProgram* pp = g_.prog->grid ? nullptr : &g_.prog->types[t];
      if (s.kind == StepKind::Move && s.castle == Castle::None && f >= 0 && to >= 0 && pp &&
          pp->rampage.reach > 0 && !s.removed.empty() &&
          !(s.removed.size() == 1 && s.removed[0].at == s.to && captures_to(c, t, f, to))) {
        // A rampage: the move ends where the run ends.
        int d = lang::unit_dir((s.to.x > s.from.x) - (s.to.x < s.from.x),
                               (s.to.y > s.from.y) - (s.to.y < s.from.y));
        if (d >= 0 && add_conjunct(board, b, c, 4, t, f, d)) any = true;
      } else if (s.kind == StepKind::Move && s.castle == Castle::None) {
        if (f >= 0 && to >= 0 && add_conjunct(board, b, c, 0, t, f, to)) any = true;
      } else if (s.kind == StepKind::Remove && s.to != s.from) {  // a strike
        if (f >= 0 && to >= 0 && add_conjunct(board, b, c, 2, t, f, to)) any = true;
      } else if (s.kind == StepKind::Remove) {  // a whirlwind
        if (f >= 0 && add_conjunct(board, b, c, 3, t, f, f)) any = true;
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
    return cards_ ? format_fen(f) + card_fields(m) : format_fen(f);
  }

  // No Stress Chess's card zones (see card_hands()): the mover's H + 1 cards, the other
  // side's H cards (given or unknown), the discard piles (given, or the top piece card Z3
  // chose), the rest of the deck an unknown pile.
  std::string card_fields(const z3::model& m) {
    const int H = cards_->hand_size, them = us_ ^ 1;
    std::string hand[2], disc[2];
    hand[them] = card_hand_[them];
    hand[us_] = card_hand_[us_];
    if (hand[us_].empty())
      for (int k = 0; k < 7; ++k)
        for (const z3::expr& v : copies_[k])
          if (on(m, v)) hand[us_].push_back(kNoStressCardKinds[k]);
    for (int c = 0; c < 2; ++c) {
      disc[c] = disc_[c];
      if (disc_chosen_[c])
        for (int t = 0; t < g_.nt; ++t)
          if (on(m, top_[c][t])) disc[c].push_back(g_.letters[t]);
    }
    int known = static_cast<int>(hand[0].size() + hand[1].size() + disc[0].size() + disc[1].size());
    int pile = static_cast<int>(cards_->deck.size()) - known - (hand[them].empty() ? H : 0);
    auto zone = [](const std::string& known_cards, int unknown) {
      std::string z = known_cards;
      if (unknown > 0) z += "?" + std::to_string(unknown);
      return z.empty() ? std::string("-") : z;
    };
    return " level:" + cards_->level + " pile:" + zone("", pile) + " wdiscard:" + zone(disc[0], 0) +
           " bdiscard:" + zone(disc[1], 0) + " whand:" + zone(hand[0], hand[0].empty() && them == 0 ? H : 0) +
           " bhand:" + zone(hand[1], hand[1].empty() && them == 1 ? H : 0);
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
    for (const z3::expr& v : card_vars_) diff.push_back(on(m, v) ? !v : v);
    return enc_->L.any(diff);
  }

  void loop(const std::vector<z3::expr>& assumptions) {
    z3::expr_vector as(ctx_);
    for (const auto& a : assumptions) as.push_back(a);
    bool fresh = true;  // solver_ has not answered a check since its assertions were set
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
      if (res == z3::unsat && !fresh) {
        // Z3 4.8's incremental solver, after models and blocking clauses, has answered
        // unsat where the same assertions on a fresh solver have models (a Two Kings
        // mate-in-1 list missed 8 of the 99 mates an enumeration finds). An unsat after
        // the first answer is so only taken from a fresh solver given every assertion.
        z3::solver again(ctx_);
        for (const auto& a : solver_.assertions()) again.add(a);
        solver_ = again;
        fresh = true;
        ++out_.fresh_checks;
        continue;
      }
      fresh = false;
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
      if (r_.progress) r_.progress(out_.found.size(), static_cast<size_t>(out_.rejected));
      if (!refined_) solver_.add(block(m));
    }
  }

  // Verifies the model's position with the generator. Returns true when it satisfies the
  // goal; otherwise either adds the conjuncts of the legal actions it found (refined_) or
  // leaves the model to be blocked.
  bool check_model(const z3::model& m, Found& fd) {
    if (!cards_) return check_board(m, fd);
    // No Stress Chess: the board's rules on the board engine (the encoding's refinements),
    // then the whole position text, cards included, on the card engine.
    const std::string full = fd.position;
    fd.position = full.substr(0, nth_space(full, 6));
    bool ok = cards_ && !advanced_ ? true : check_board(m, fd);
    fd.position = full;
    std::string move;
    // A board check that failed without a refinement is settled by the card engine, which
    // tries every action: a position is blocked only when it truly misses the goal.
    if (!ok && refined_) return false;
    if (!verify_cards(fd.position, move)) {
      refined_ = false;
      return false;
    }
    fd.move = move;
    return true;
  }

  // A text's placement field, without a reserve in brackets.
  static std::string first_field(const std::string& text) { return text.substr(0, text.find_first_of(" [")); }

  // The placement field of board b in model m (every cell).
  std::string board_field(const z3::model& m, const Board& b) {
    FenFields f;
    f.width = g_.width;
    f.height = g_.height;
    f.cells.assign(g_.width * g_.height, 0);
    for (int x = 0; x < g_.ncells; ++x)
      for (int c = 0; c < 2; ++c)
        for (int t = 0; t < g_.nt; ++t)
          if (on(m, enc_->pc(b, x, c, t)))
            f.at(g_.coord[x]) = c ? static_cast<char>(std::tolower(static_cast<unsigned char>(g_.letters[t])))
                                  : g_.letters[t];
    return first_field(format_fen(f));
  }

  static size_t nth_space(const std::string& s, int n) {
    size_t at = 0;
    for (int i = 0; i < n && at != std::string::npos; ++i) at = s.find(' ', at + (i ? 1 : 0));
    return at;
  }

  bool verify_cards(const std::string& text, std::string& move) {
    return verify_card_position(p_, text, r_.goal, "", &move);
  }

  bool check_board(const z3::model& m, Found& fd) {
    refined_ = false;
    Engine& e = *engine_;
    try {
      e.set_position(fd.position);
    } catch (const PositionError&) {
      return false;
    }
    if (r_.goal == Goal::MateIn1 && p_->grid) {
      // ChessMe: the selected move itself (its texts are no FEN).
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
        if (replies.empty() && st.in_check && !over_by_invasion(*p_, st)) {
          fd.move = text;
          fd.reason = st.reason;
          return true;
        }
        refined_ = refine(e, 1, Q_);
        return false;
      }
      return false;
    }
    if (r_.goal == Goal::MateIn1) {
      // The generator's actions that leave the board the model's Q: the mating action
      // (any of them mating suffices); when none mates, the defender's replies after the
      // first refine Q.
      const std::string want = board_field(m, Q_);
      std::vector<Action> acts, replies;
      e.legal_actions(acts);
      int first = -1;
      for (size_t i = 0; i < acts.size(); ++i) {
        e.apply(acts[i]);
        if (first_field(e.position()) == want) {
          if (first < 0) first = static_cast<int>(i);
          e.legal_actions(replies);
          Status st = e.status();
          if (replies.empty() && st.in_check && !over_by_invasion(*p_, st)) {
            e.undo();
            fd.move = uci(e.describe(acts[i]), e.chess960());
            fd.reason = st.reason;
            return true;
          }
        }
        e.undo();
      }
      if (first < 0) return false;
      e.apply(acts[first]);
      refined_ = refine(e, 1, Q_);
      return false;
    }
    Status st = e.status();
    fd.reason = st.reason;
    if (over_by_invasion(*p_, st)) return false;
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
  const lang::CardProgram* cards_ = nullptr;     // No Stress Chess
  bool advanced_ = false;                        // its advanced level (check rules)
  std::vector<z3::expr> card_;                   // [t]: a card of the mover's hand names piece type t
  z3::expr_vector card_vars_{ctx_};              // the card choices Z3 makes (blocked per model)
  std::array<std::vector<z3::expr>, 7> copies_;  // [kind][i]: a chosen hand holds more than i
  std::vector<z3::expr> top_[2];                 // [c][t]: c's newest discarded piece card is t
  std::string disc_[2];                          // the discard piles given
  bool disc_given_[2] = {false, false}, disc_chosen_[2] = {false, false};
  std::string card_hand_[2];  // the hands given (empty: unknown, or chosen by Z3 for the mover)
  std::unique_ptr<Encoder> enc_;
  std::unique_ptr<Engine> engine_;
  Board P_, Q_;
  int us_ = 0;
  int hand_[2][lang::kMaxTypes] = {};
  Board M_;  // mate-in-1 with a king-turn: the board after the normal action
  std::vector<std::tuple<int, int, z3::expr>> moves_;  // the normal action's move selectors
  std::set<std::tuple<int, int, int, int, int, int>> added_;
  bool refined_ = false;
  Outcome out_;
  std::chrono::steady_clock::time_point t0_, deadline_;
};

}  // namespace

Outcome synthesize(std::shared_ptr<const lang::Program> program, const Request& request) {
  if (!program) throw std::invalid_argument("no program");
  if (request.count < 1) throw std::invalid_argument("--count must be at least 1");
  const auto t0 = std::chrono::steady_clock::now();
  try {
    Synth s(std::move(program), request);
    return s.run();
  } catch (const TimedOut&) {
    // --timeout passed while the encoding was being built: nothing was searched.
    Outcome o;
    o.timed_out = true;
    o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return o;
  }
}

std::vector<std::string> compare_encoding(std::shared_ptr<const lang::Program> program,
                                          const std::vector<std::string>& positions) {
  if (!program || program->grid || program->cards)
    throw std::invalid_argument("compare_encoding: a bounded board without cards");
  Request r;
  r.goal = Goal::InCheck;
  Synth s(std::move(program), r);
  std::vector<std::string> out;
  for (const std::string& pos : positions)
    for (const std::string& d : s.compare(pos)) out.push_back(pos + ": " + d);
  return out;
}

bool verify(const std::shared_ptr<const lang::Program>& program, const std::string& position, Goal goal,
            const std::string& move) {
  if (program->cards) {
    lang::make_compiled_engine(program)->set_position(position);  // PositionError for bad text
    return verify_card_position(program, position, goal, move, nullptr);
  }
  auto e = lang::make_compiled_engine(program);
  e->set_position(position);
  std::vector<Action> acts;
  e->legal_actions(acts);
  Status st = e->status();
  if (over_by_invasion(*program, st)) return false;
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
        Status after = e->status();
        bool mate = replies.empty() && after.in_check && !over_by_invasion(*program, after);
        e->undo();
        if (mate) return true;
      }
      return false;
  }
  return false;
}

}  // namespace arb::synth
