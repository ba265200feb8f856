// The board as the encoding sees it: the cells, each piece type's targets and the attacks
// on each cell, read from the compiled Program's tables as the generator reads them.
#include "geo.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "arbiter/fen.hpp"

namespace arb::synth::detail {

void count_set_letter(Geo& g, char ch) {
  int c = std::islower(static_cast<unsigned char>(ch)) ? 1 : 0;
  size_t t = g.letters.find(static_cast<char>(std::toupper(static_cast<unsigned char>(ch))));
  if (t != std::string::npos) ++g.set[c][t];
}

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
  g.size_tables();
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
  g.size_tables();
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

template void build_bounded<uint64_t>(const Program&, const lang::BoardTables<uint64_t>&, Geo&, int, int);
template void build_bounded<lang::Wide<2>>(const Program&, const lang::BoardTables<lang::Wide<2>>&, Geo&, int,
                                           int);
template void build_bounded<lang::Wide<4>>(const Program&, const lang::BoardTables<lang::Wide<4>>&, Geo&, int,
                                           int);

int type_of(const Geo& g, char letter) {
  size_t t = g.letters.find(static_cast<char>(std::toupper(static_cast<unsigned char>(letter))));
  return t == std::string::npos ? -1 : static_cast<int>(t);
}

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

}  // namespace arb::synth::detail
