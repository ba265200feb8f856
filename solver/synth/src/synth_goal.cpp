// The encoding of the goal: the position's constraints, the goals (in check, no legal
// action, mate in one, the king captured) and the mover's actions from one board to another.
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
#include "synthesizer.hpp"

namespace arb::synth::detail {

void Synth::build() {
  const Program& p = *p_;
  g_.nt = p.grid ? static_cast<int>(p.grid->types.size()) : p.ntypes;
  for (int t = 0; t < g_.nt; ++t) g_.letters.push_back(p.grid ? p.grid->types[t].letter : p.types[t].letter);
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
      throw std::invalid_argument("--window " + std::to_string(ww) + "x" + std::to_string(wh) + ": at most " +
                                  std::to_string(kMaxWindowSquares) + " squares (e.g. 24x24)");
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

void Synth::build_king_capture() {
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

z3::expr Synth::invaded(const Board& b, int c) {
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

z3::expr Synth::count_is(const Board& b, int c, int t, int n) {
  z3::expr_vector v(ctx_);
  for (int x = 0; x < g_.ncells; ++x)
    if (g_.inner[x]) v.push_back(enc_->pc(b, x, c, t));
  if (v.empty()) return ctx_.bool_val(n == 0);
  std::vector<int> ones(v.size(), 1);
  return z3::pbeq(v, ones.data(), n);
}

z3::expr Synth::count_pieces(int n) {
  z3::expr_vector v(ctx_);
  for (int x = 0; x < g_.ncells; ++x)
    if (g_.inner[x])
      for (int c = 0; c < 2; ++c)
        for (int t = 0; t < g_.nt; ++t) v.push_back(enc_->pc(P_, x, c, t));
  std::vector<int> ones(v.size(), 1);
  return z3::pbeq(v, ones.data(), n);
}

void Synth::position_constraints(const Board& b, bool with_material) {
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

void Synth::build_mate_in_1() {
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

void Synth::encode_action(const Board& A, const Board& B, uint32_t mask, const z3::expr& active,
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

}  // namespace arb::synth::detail
