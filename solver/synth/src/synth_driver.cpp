// The Z3 driver: the clock, the search loop, each model checked by the generator, and the
// refinement by the conjuncts of the legal actions the generator finds.
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

Synth::Synth(std::shared_ptr<const Program> p, const Request& r)
    : p_(std::move(p)), r_(r), solver_(ctx_), engine_(lang::make_compiled_engine(board_program(p_))) {
  // The clock runs from here: building the encoding counts against --timeout too.
  t0_ = std::chrono::steady_clock::now();
  deadline_ = r_.timeout_seconds > 0 ? t0_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                 std::chrono::duration<double>(r_.timeout_seconds))
                                     : std::chrono::steady_clock::time_point::max();
  build();
}

Outcome Synth::run() {
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

void Synth::checkpoint() const {
  if (deadline_ != std::chrono::steady_clock::time_point::max() &&
      std::chrono::steady_clock::now() >= deadline_)
    throw TimedOut{};
}

void Synth::search() {
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

void Synth::loop(const std::vector<z3::expr>& assumptions) {
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

z3::expr Synth::block(const z3::model& m) {
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

bool Synth::check_model(const z3::model& m, Found& fd) {
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

bool Synth::check_board(const z3::model& m, Found& fd) {
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

void Synth::seed(int board, const Board& b, int c) {
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

bool Synth::add_conjunct(int board, const Board& b, int c, int kind, int t, int from, int to) {
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

bool Synth::captures_to(int c, int t, int f, int to) const {
  for (const Target& tg : g_.targets[c][f * g_.nt + t])
    if (tg.to == to && (tg.capture || tg.own)) return true;
  return false;
}

bool Synth::refine(Engine& e, int board, const Board& b) {
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

bool Synth::on(const z3::model& m, const z3::expr& e) const {
  if (enc_->L.is_T(e)) return true;
  if (enc_->L.is_F(e)) return false;
  return m.eval(e, true).is_true();
}

}  // namespace arb::synth::detail
