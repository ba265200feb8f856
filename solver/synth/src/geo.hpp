// The board as the Z3 encoding sees it (cells, each piece type's targets and the attacks on
// each cell), built from a compiled Program's tables (geo.cpp). Private to the synthesis.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "arbiter/engine.hpp"
#include "arbiter/lang/bitboard.hpp"
#include "arbiter/lang/compile.hpp"

namespace arb::synth::detail {

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
  // Once every cell is added: each side's per-cell tables, sized and at their defaults
  // (no target, every piece may stand, none may be placed, no promotion).
  void size_tables() {
    for (int c = 0; c < 2; ++c) {
      targets[c].assign(ncells * nt, {});
      standable[c].assign(ncells * nt, 1);
      placeable[c].assign(ncells * nt, 0);
      promote[c].assign(ncells * nt, "");
    }
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

void count_set_letter(Geo& g, char ch);
// The cells from f along direction d, at most `range` of them (0: to the edge).
std::vector<int> line_cells(const Geo& g, int f, int d, int range);
// A bounded board's geometry, from its tables (BB: uint64_t, Wide<2> or Wide<4>); the
// synthesis window is the ww x wh squares at a1.
template <class BB>
void build_bounded(const Program& p, const lang::BoardTables<BB>& T, Geo& g, int ww, int wh);
// The unbounded grid's window at (ox, oy), ww x wh, and the ring of cells around it.
void build_grid(const Program& p, Geo& g, int ox, int oy, int ww, int wh);
// The type of a letter (either case), or -1.
int type_of(const Geo& g, char letter);
// "KQ v K": counts per colour and type.
void parse_material(const Geo& g, const std::string& text, int (&n)[2][lang::kMaxTypes]);

}  // namespace arb::synth::detail
