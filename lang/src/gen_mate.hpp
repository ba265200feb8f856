// `checkmate-by LETTERS [only|in-series] -> RESULT` (Program::mate_rules, issue 26): a
// checkmate's result by the pieces that gave it, as Fairy-Stockfish's shatarMateRule
// judges shatar's mates (its Position::checkmate_value: a mate by knights alone is no win,
// and a mate is a draw unless a check of the series that led to it came from a rook, bers or
// knight). verdict_of() asks only at a checkmate of a program that states such a rule.
//
// A part of the body of class Generator (generator_impl.hpp includes it inside the
// class, in this place). Not a standalone header; include it nowhere else. clang-format
// would unindent it: it is formatted as part of the class.
// clang-format off

  // The types of the pieces of colour c ^ 1 that attack a royal piece of colour c, by their
  // leaps and rides (the compile step refuses pieces that move otherwise).
  uint32_t checker_types(int c) const {
    const int by = c ^ 1;
    const BB occ = occupied();
    uint32_t types = 0;
    for (BB r = royals(c); r; clear_lsb(r)) {
      const int k = lsb(r);
      for (int t = 0; t < p_->ntypes; ++t)
        if (t_->pieces[t].check_from[by][k] & pieces(by, t) & occ) types |= 1u << t;
      for (int d = 0; d < 8; ++d) {
        const int b = first(d, k, occ);
        if (b < 0 || board_[b] < 0 || (board_[b] & 1) != by) continue;
        if (t_->pieces[board_[b] >> 1].ride_check[by] & (1u << ((d + 4) & 7))) types |= 1u << (board_[b] >> 1);
      }
    }
    return types;
  }

  // The types that gave the checks of the mating side's series: the mate's, then each
  // earlier turn of the mating side back from it that left the mated side in check, as far
  // as this game's history goes (a position read from a text starts it, as the root of
  // Fairy-Stockfish's state list). Walked on a copy: only at a mate.
  [[gnu::noinline]] uint32_t check_series_types() const {
    Generator g(*this);
    uint32_t types = g.checker_types(g.side_);
    for (;;) {
      for (int i = 0; i < 2; ++i) {
        if (g.stack_.empty()) return types;
        g.undo();
      }
      if (!g.royals_in_check(g.side_)) return types;
      types |= g.checker_types(g.side_);
    }
  }

  // Whether the turn that led here, made in this game, was one step that placed a piece from
  // the hand and captured nothing (a position read from a text has no such turn, as
  // Fairy-Stockfish's root has no previous state).
  bool last_turn_dropped() const {
    if (stack_.empty()) return false;
    const Undo& u = stack_.back();
    if (stack_.size() > 1 && !stack_[stack_.size() - 2].ends_turn) return false;
    return u.moved < 0 && u.captured < 0 && kind_of(u.move) == kPlace && u.nremoved == 0;
  }

  // The mated side's result (-1 loss, 0 draw, 1 win) by the first `checkmate-by` rule that
  // holds, or `otherwise`. `dropped` reads Fairy-Stockfish's uchifuzume: every checker is of
  // the types and the mating turn was a drop that captured nothing (its checkmate_value asks
  // that the material changed and nothing was captured; a drop uncovers no check of a
  // leaper or rider, and the compile step refuses hoppers and borrowers with `dropped`, so
  // the dropped piece gives it).
  // `by_drop`: a `dropped` rule decided it (the game's last turn, which a text does not hold).
  [[gnu::noinline]] int mate_rule_value(int otherwise, bool* by_drop = nullptr) const {
    const uint32_t now = checker_types(side_);
    for (const Program::MateRule& r : p_->mate_rules) {
      const bool holds = r.series    ? (check_series_types() & r.types) != 0
                         : r.dropped ? now && !(now & ~r.types) && last_turn_dropped()
                         : r.only    ? now && !(now & ~r.types)
                                     : (now & r.types) != 0;
      if (holds) {
        if (by_drop) *by_drop = r.dropped;
        return r.value;
      }
    }
    return otherwise;
  }
