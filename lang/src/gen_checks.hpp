// The problem solver's queries (issue 27): the checking actions by attack tables, and
// whether a legal action exists, for the last move of #N and h#N.
//
// A part of the body of class Generator (generator_impl.hpp includes it inside the
// class, after gen_interface.hpp). Not a standalone header; include it nowhere else.
// clang-format would unindent it: it is formatted as part of the class.
// clang-format off

  // The squares from which a piece of type t of the side to move would attack the enemy
  // royal piece, and the own pieces whose leaving a line uncovers an attack on it
  // (Stockfish's check squares and discovered-check candidates). Only where checks are
  // leaps and full rides on the plain 8x8 board (the magic tables): checks_plain().
  struct CheckInfo {
    int k = -1;  // the enemy royal piece's square
    BB disc{};
    BB squares[kMaxTypes];
  };
  bool checks_plain() const {
    if constexpr (!kMagic) return false;
    const int us = side_;
    return rook_ && !rich_ && plain_king_ && p_->royal_safe && !p_->petrify_types && !royal_phase_ &&
           other_check_dirs_[us] == 0 && !multi_royal_;
  }
  void check_info(CheckInfo& ci) const {
    const int us = side_, them = us ^ 1;
    ci.k = royal_square(them);
    if constexpr (kMagic) {
    if (ci.k < 0) return;
    const BB occ = occupied();
    const uint32_t orth = orth_check_types_[us], diag = diag_check_types_[us];
    const BB rook = rook_[ci.k].attacks(occ), bishop = bishop_[ci.k].attacks(occ);
    for (int t = 0; t < p_->ntypes; ++t) {
      BB s = t_->pieces[t].check_from[us][ci.k];
      if (orth >> t & 1) s |= rook;
      if (diag >> t & 1) s |= bishop;
      ci.squares[t] = s;
    }
    BB snipers{};
    if (orth) snipers |= rook_[ci.k].attacks(0) & typed(us, orth);
    if (diag) snipers |= bishop_[ci.k].attacks(0) & typed(us, diag);
    for (; snipers; clear_lsb(snipers)) {
      const BB b = t_->between(ci.k, lsb(snipers)) & occ;
      if (b && !(b & (b - 1)) && (b & by_color_[us])) ci.disc |= b;
    }
    }
  }
  // Whether the legal move m gives check, by the tables of check_info(); -1 when they
  // cannot tell (castling, en passant, a move whose own square stood between its
  // destination and the royal piece, an action that is no plain move).
  int checks_by_table(const CheckInfo& ci, Move m) const {
    const uint32_t k = kind_of(m);
    if (sub_of(m) || has_wall(m) || (k != kNormal && k != kDouble && k != kPromote)) return -1;
    const int from = from_of(m), to = to_of(m);
    if (test(t_->between(to, ci.k), from)) return -1;
    const int t = k == kPromote ? static_cast<int>(type_of(m)) : board_[from] >> 1;
    if (test(ci.squares[t], to)) return 1;
    return test(ci.disc, from) && !test(t_->line(ci.k, from), to) ? 1 : 0;
  }

  // The destinations from which a move of the piece of type t on s may give check: all
  // for a discovered-check candidate, else its type's check squares, the line through it
  // and the royal piece (checks_by_table() cannot tell there) and, for a piece that
  // promotes, its promotion zone (a promoted type checks by its own squares).
  const CheckInfo* checks_ = nullptr;  // set while checking_actions() generates
  BB check_targets(int s, int t) const {
    const CheckInfo& ci = *checks_;
    if (test(ci.disc, s)) return t_->board_mask;
    BB m = ci.squares[t] | t_->line(ci.k, s);
    if (!p_->types[t].promote_choices[side_].empty())
      m |= p_->types[t].promote_leaving ? t_->board_mask : t_->pieces[t].promote_zone[side_];
    return m;
  }

  void checking_actions(std::vector<Action>& out) override {
    if (!checks_plain()) return Engine::checking_actions(out);
    out.clear();
    CheckInfo ci;
    check_info(ci);
    if (ci.k < 0) return;  // no royal piece to attack
    std::vector<Move>& moves = legal_buf_;
    moves.clear();
    if (ends_any_ || royal_take_ || pseudo_) {
      generate<false>(&moves);
    } else {
      // The plain loop (generate<false>() here) restricted to the moves that may check:
      // the same moves as it lists, in its order, but those that cannot give check.
      checks_ = &ci;
      generate_impl<false, false, false, false, true>(&moves);
      checks_ = nullptr;
    }
    for (Move m : moves) {
      const int c = checks_by_table(ci, m);
      if (c == 1 || (c < 0 && gives_check(Action{m, 0}))) out.push_back(Action{m, 0});
    }
  }
  // Whether the side to move's royal piece has a legal step of its own, judged as the
  // plain loop judges it (attacked() on the occupancy without it): status()'s first look,
  // where a checked side most often escapes, before the whole loop (pins, evasion
  // squares, every piece). False also where the loop is not the plain one (it then decides).
  bool royal_step_exists() const {
    if (ends_any_ || rich_ || royal_take_ || pseudo_ || royal_only_ || royal_phase_ || multi_royal_ ||
        !plain_king_ || !p_->royal_safe || !p_->action_move || p_->royal_stays_in_check || facing_now_ ||
        move_types_ != CardBoard::kAllTypes)
      return false;
    const int us = side_, them = us ^ 1, k = royal_square(us);
    if (k < 0 || (p_->place_first_royal && p_->royal_type >= 0 && reserve_[us][p_->royal_type] > 0)) return false;
    const PieceTables<BB>& pp = t_->pieces[board_[k] >> 1];
    const BB occ = occupied(), opp = by_color_[them];
    BB quiet = pp.leap_move[us][k] & ~occ, caps = pp.leap_capture[us][k] & opp;
    rides(pp, us, k, occ, opp, quiet, caps);
    const BB targets = quiet | caps;
    if (targets & pp.promote_zone[us]) return false;
    const BB occ_without = occ & ~bit(k);
    for (BB tb = targets; tb; clear_lsb(tb))
      if (!attacked(lsb(tb), them, occ_without)) return true;
    return false;
  }
  bool has_legal_action() override {
    any_only_ = true;
    const uint64_t n = generate<true>(nullptr);
    any_only_ = false;
    return n > 0;
  }
// clang-format on
