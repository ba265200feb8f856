// Move generation: passes, facing royals and counting (janggi), the ends' filters, and
// generate_impl, the move loop.
//
// A part of the body of class Generator (generator_impl.hpp includes it inside the
// class, in this place): member functions moved out of generator.cpp unchanged, so
// the class and its inlining are as they were. Not a standalone header; include it
// nowhere else. clang-format would unindent it: it is formatted as part of the class.
// clang-format off

  // ---- passes, facing royals, counting (janggi's primitives; gen_pass.hpp) --------------
  // `pass`: a kNull move from the royal square to itself (Fairy-Stockfish writes `e2e2`).
  // It is legal when the side to move is not in check, and always while the royal pieces
  // face each other under `royals-facing`; every other action must then break the facing
  // (facing_now_ makes judged_after() test it).
  bool royals_face() const {
    const int a = royal_square(0), b = royal_square(1);
    if (a < 0 || b < 0) return false;
    const int d = t_->dir[a][b];
    return d >= 0 && d % 2 == 0 && !(t_->between(a, b) & occupied());
  }
  bool last_was_pass(size_t back) const {
    return stack_.size() >= back && kind_of(stack_[stack_.size() - back].move) == kNull &&
           stack_[stack_.size() - back].ends_turn;
  }
  ends::Verdict pass_verdict() const {
    int value = Program::kNoEnd;
    Termination end = Termination::None;
    if (p_->double_pass != Program::kNoEnd && last_was_pass(1) && last_was_pass(2)) {
      value = p_->double_pass;
      end = Termination::DoublePass;
    } else if (p_->royals_facing != Program::kNoEnd && last_was_pass(1) && royals_face()) {
      value = p_->royals_facing;
      end = Termination::RoyalsFacing;
    }
    if (end == Termination::None) return {};
    int white = 0, black = 0;
    for (int t = 0; t < p_->ntypes; ++t) {
      white += p_->types[t].points * popcount(pieces(0, t));
      black += p_->types[t].points * popcount(pieces(1, t));
    }
    return pass::verdict(end, value, white, black, p_->counting_needs);
  }
  template <bool Count>
  [[gnu::noinline]] uint64_t generate_with_pass(std::vector<Move>* out) {
    facing_now_ = p_->royals_facing != Program::kNoEnd && royals_face();
    uint64_t n = generate_moves<Count>(out);
    facing_now_ = false;
    if (royal_only_ || (any_only_ && Count && n)) return n;
    const int k = royal_square(side_);
    const bool checked = k >= 0 && p_->royal_safe && royals_attacked(side_);
    if (checked && !(p_->royals_facing != Program::kNoEnd && royals_face())) return n;
    const Move m = make_move(k < 0 ? 0 : k, k < 0 ? 0 : k, kNull);
    if constexpr (Count)
      ++n;
    else
      out->push_back(m);
    return n;
  }

  bool is_capture(Move m) const {
    const uint32_t k = kind_of(m);
    if (k == kEnPassant) return true;
    if (k == kCastleK || k == kCastleQ || k == kPlace || k == kNull) return false;
    const int to = to_of(m);
    return board_[to] >= 0 && (board_[to] & 1) != side_;
  }
  template <bool Count>
  [[gnu::noinline]] uint64_t generate_ends(std::vector<Move>* out) {
    if (counted_ends_ && counted_verdict().over) return 0;
    if (p_->pass) return generate_with_pass<Count>(out);
    if (pass_) return generate_or_pass<Count>(out);
    if (wall_rule_ != Program::WallRule::None) return generate_walls<Count>(out);
    if (p_->must_drop && hand_holds(side_)) [[unlikely]]
      return generate_must_drop<Count>(out);
    const bool dropping = p_->must_drop_type >= 0 && reserve_[side_][p_->must_drop_type] > 0;
    if (!p_->must_capture && !dropping) return generate_moves<Count>(out);
    forced_buf_.clear();
    generate_moves<false>(&forced_buf_);
    if (p_->must_capture) ends::keep_captures(forced_buf_, [this](Move m) { return is_capture(m); });
    if (dropping)
      misc::keep_must_drops(
          forced_buf_, [](Move m) { return kind_of(m) == kPlace; },
          [this](Move m) { return static_cast<int>(type_of(m)) == p_->must_drop_type; });
    if constexpr (!Count) out->insert(out->end(), forced_buf_.begin(), forced_buf_.end());
    return forced_buf_.size();
  }

  template <bool Count>
  uint64_t generate_moves(std::vector<Move>* out) {
    // pseudo_legal_actions() runs a copy of the loop without the legality test (a template
    // argument: the normal loop pays nothing for it).
    if (pseudo_) [[unlikely]]
      return generate_impl<Count, true, true>(out);
    // A royal capture legal whatever it leaves (royal_take_) is judged in the general loop
    // only: the plain loop of every other program pays nothing for it.
    return rich_ || royal_take_ ? generate_impl<Count, true>(out) : generate_impl<Count, false>(out);
  }

  // Only: the legal moves onto one square, only_to_ (legal_actions_to()); a copy of the
  // loop, so the others pay nothing for it. Checks: of the moves, only those that may give
  // check (check_targets(), checking_actions()), a superset of the checking moves in the
  // loop's order; castling, en passant and drops are all kept (the caller filters them).
  template <bool Count, bool Rich, bool Pseudo = false, bool Only = false, bool Checks = false>
  uint64_t generate_impl(std::vector<Move>* out) {
    uint64_t n = 0;
    auto emit = [&](Move m) {
      if constexpr (Only)
        if (static_cast<int>(to_of(m)) != only_to_) return;
      if constexpr (Count) {
        ++n;
      } else {
        out->push_back(m);
      }
    };
    const int us = side_, them = us ^ 1;
    const BB occ = occupied(), own = by_color_[us], opp = by_color_[them];
    const int k = royal_square(us);
    const bool guard = k >= 0 && p_->royal_safe;
    // The royal-move phase follows a legal normal action, which left no royal piece
    // attacked; only a royal piece moves then, so the only pins that matter hold one royal
    // piece against another: none unless two stand on a line with nothing between.
    const bool in_check =
        guard && !royal_only_ &&
        ((multi_royal_ || (Rich && blast_types_)) ? royals_attacked(us) : attacked(k, them, occ));
    // Where captures explode, every action gets the full legality test (an explosion may
    // remove a pinner, a blocker or a royal piece).
    // Paths (hoppers, lame leaps, other riders) and the flying general are judged by the
    // squares they depend on (path_exposure(): `disc` below), as Stockfish judges pins.
    const bool test_every =
        in_check || facing_now_ || (Rich && (blast_types_ || p_->no_check_given || p_->duple_check));
    // In check in a plain program (attacks by leaps and rides only: no borrowing, no
    // animal lines, one royal piece), an action of another piece can only help by taking
    // the one checker or standing between it and a riding check: the others are dropped
    // before their full test (en passant, whose victim is not on its destination, keeps it).
    bool evading = false;
    BB evade{};
    if constexpr (!Rich)
      if (in_check && !multi_royal_ && !borrowing_ && !animal_attacks_ && !Pseudo) {
        evading = true;
        evade = evasion_squares(k, them, occ);
      }
    // Stockfish's evasions: with a plain royal piece (its safety is attacked() alone), an
    // action of an unpinned other piece onto an evasion square (taking the one checker or
    // standing between) is legal as generated; a pinned one keeps to its line as out of
    // check. Only the royal piece's own moves and en passant are then tested in full.
    const bool test_others = evading && plain_king_ ? facing_now_ : test_every;
    // The legality test of this loop: explosions only in the general one.
    const bool blast = Rich && blast_types_;
    auto legal = [&](Move m, bool only_mover = false) {
      if constexpr (Pseudo) return true;
      return blast ? safe_after_blast(m) : safe_after<false>(m, only_mover);
    };
    // The enemy royal pieces a capture may take whatever it leaves (royal_take_): general
    // loop only (the plain loop's tests below fold away).
    BB take{};
    if constexpr (Rich)
      if (royal_take_ && !blast) take = royals(them);
    BB pins{};
    if (guard && !multi_royal_ && !royal_only_ && !Pseudo) pins = pinned(k, us);
    if (guard && multi_royal_ && !Pseudo) {
      const BB rs = royals(us);
      bool need = !royal_only_;
      for (BB r = rs; r && !need; clear_lsb(r))
        for (BB r2 = rs & ~bit(lsb(r)); r2 && !need; clear_lsb(r2))
          need = t_->dir[lsb(r)][lsb(r2)] >= 0 && !(t_->between(lsb(r), lsb(r2)) & occ);
      if (need)
        for (BB r = rs; r; clear_lsb(r)) pins |= pinned(lsb(r), us);
    }
    // Rampages and strikes of the opponent attack along lines the pins do not see (a
    // blocker leaving a rampage path): every action is then tested in full.
    // The squares between such a piece and an own royal piece within its reach: an action
    // leaving or landing on one is tested in full (landing matters for a self-capture of
    // a blocker).
    BB disc{};
    if constexpr (Rich)
      if (guard)
        for (uint32_t m = rampage_types_ | line_check_types_; m; m &= m - 1) {
          const int t = __builtin_ctz(m);
          const int reach_of = line_reach_[t];
          for (BB b = pieces(them, t); b; clear_lsb(b))
            for (BB r = royals(us); r; clear_lsb(r)) {
              const int q = lsb(b), kq = lsb(r);
              const int d = t_->dir[q][kq];
              if (d < 0 || (reach_of != 0 && dist(q, kq) > reach_of)) continue;
              // A blocker beyond the king on a rampage path counts too: the whole path.
              disc |= t_->between(q, kq);
              if (p_->types[t].rampage.reach > 0) disc |= reach(d, q, p_->types[t].rampage.reach);
            }
        }
    if constexpr (Rich)
      if (guard && !in_check && (path_check_types_ || p_->royals_not_facing)) disc |= path_exposure(us, occ);
    const bool royal_in_reserve =
        p_->place_first_royal && p_->royal_type >= 0 && reserve_[us][p_->royal_type] > 0;
    // A game won by midline invasion has no further action (RULINGS 4.12).
    BB targets_of[kMaxTypes];
    if constexpr (Rich) {
      if (p_->invasion && !answering_) {
        bool draw;
        if (region_ended(draw)) return 0;
      }
      // A colour's royal pieces were removed (by the opponent, or by the mover's own
      // explosion): the game is over.
      if (royal_ends_ && (royal_lost(us) || royal_lost(them))) return 0;
      if (p_->capture_rules) capture_targets(us, targets_of);
    }

    if (p_->action_move && !royal_in_reserve) {
      BB movers = royal_only_ ? royals(us) : own;
      if (move_types_ != CardBoard::kAllTypes) {
        BB allowed{};
        for (int t = 0; t < p_->ntypes; ++t)
          if (move_types_ >> t & 1) allowed |= by_type_[t];
        movers &= allowed;
      }
      // Counting where no action needs the full test: plain pawns and lean types in bulk.
      if constexpr (Count && !Rich && !Pseudo)
        if (!test_every && !royal_only_ && move_types_ == CardBoard::kAllTypes &&
            (pawn_types_[us] | lean_types_[us]))
          movers &= ~count_pawns(us, guard && plain_king_ ? k : -1, pins, occ, opp, n, legal);
      for (BB b = movers; b; clear_lsb(b)) {
        if (Count && any_only_ && n) return n;
        const int s = lsb(b);
        const int t = board_[s] >> 1;
        const PieceTables<BB>& pp = t_->pieces[t];
        const bool is_royal = p_->royal_types >> t & 1;
        // Moves whose legality needs a full test; the others are legal as generated.
        const bool pinned_here = test(pins, s);
        // A pinned teleporter may land on the pin's line beyond the pinner or the king.
        bool test_all = test_others || is_royal;
        // Borrowed rides count in the pins (pinned()); a pinned teleporter may land on the
        // pin's line beyond the pinner or the king.
        // (a pinned piece taking the pinner's lender breaks the pin: full test when borrowing).
        if constexpr (Rich)
          test_all = test_all || (pinned_here && (pp.special || borrowing_)) || test(disc, s);
        // Several royal pieces: a pin may hold against any of them, not only k's line.
        test_all = test_all || (pinned_here && multi_royal_);
        // Several royal pieces: a royal piece's plain move is tested at its destination only.
        const bool mover_only =
            multi_royal_ && is_royal && !in_check && !pinned_here && !test(disc, s) && !p_->duple_check;
        BB tg = opp;
        if constexpr (Rich) {
          if (p_->capture_rules) tg = targets_of[t];
          if (within_types_) tg &= ~far_protected(s, them);
          if (p_->types[t].capture_not) tg &= ~types_bb(p_->types[t].capture_not);  // `never-captures`
        }
        BB quiet = pp.leap_move[us][s] & ~occ;
        BB caps = pp.leap_capture[us][s] & tg;
        rides(pp, us, s, occ, tg, quiet, caps);
        if constexpr (Rich)
          if (pp.special && (target_types_ >> t & 1)) special_targets(s, t, us, occ, tg, quiet, caps);
        BB targets = quiet | caps;
        if constexpr (Only) targets &= bit(only_to_);  // the moves emit() would drop, untested
        BB may_check{};
        if constexpr (Checks) {
          may_check = check_targets(s, t);
          targets &= may_check;
        }
        BB takes{};
        if constexpr (Rich) takes = caps & take;
        if (evading && !is_royal) targets &= evade;
        if (in_check && is_royal && p_->royal_stays_in_check) [[unlikely]]
          targets = royal_in_check_targets(k, them, targets & opp, occ);
        // A pinned piece stays between its royal piece and the pinner (taking it); a line
        // jumper could otherwise leap over the pinner onto the line beyond.
        if (pinned_here && !test_all)
          targets &= pp.line_jumps ? t_->between(k, s) | ride(t_->dir[k][s], s, occ) : t_->line(k, s);
        if constexpr (Rich) targets |= takes;
        // A royal piece's plain steps judged by attacked() on the occupancy without it, no
        // make and unmake (safe_after(m, true) without the call, see there; a captured
        // piece on the destination attacks nothing there): with several royal pieces when
        // the step can expose no other (the hot test of Two Kings), and the one royal
        // piece of a plain program (leaps and rides only).
        bool by_occupancy;
        if constexpr (Rich)
          by_occupancy = mover_only && occupancy_tests_ && !borrowing_ && !(targets & disc);
        else
          by_occupancy = is_royal && guard && plain_king_;
        if (by_occupancy && !Pseudo && !(targets & pp.promote_zone[us])) {
          const BB occ_without = occ & ~bit(s);
          for (BB tb = targets; tb; clear_lsb(tb))
            if (test(takes, lsb(tb)) || !attacked(lsb(tb), them, occ_without))
              emit(make_move(s, lsb(tb), kNormal));
          targets = BB{};
        }
        // gen_promote: a `promotes-to` piece standing in its zone may promote on any move;
        // an optional promotion keeps the plain move unless the piece would stand immobile.
        const PieceProgram& prog = p_->types[t];
        const BB zone =
            prog.promote_leaving && test(pp.promote_zone[us], s) ? t_->board_mask : pp.promote_zone[us];
        // Counting: moves legal as generated and without promotion are counted at once.
        if constexpr (Count)
          if (!test_all && !(targets & (zone | disc))) {
            n += count(targets);
            targets = BB{};
          }
        for (BB tb = targets; tb; clear_lsb(tb)) {
          int to = lsb(tb);
          if (test(zone, to) && (!prog.promote_capturing || board_[to] >= 0)) {
            for (char pt : prog.promote_choices[us]) {
              if (!promotable(us, pt)) continue;
              Move m = make_move(s, to, kPromote, pt);
              if ((!test_all && !test(disc, to)) || test(takes, to) || legal(m)) emit(m);
            }
            if (!prog.promote_optional || test(pp.immobile[us], to)) continue;
          }
          Move m = make_move(s, to, kNormal);
          if ((!test_all && !test(disc, to)) || test(takes, to) || legal(m, mover_only && !test(disc, to)))
            emit(m);
        }
        if constexpr (Rich)
          if (pp.special && animals_) {
            Move buf[64];
            const int nb = actions_in_place(s, t, us, occ, tg, buf);
            for (int i = 0; i < nb; ++i)
              if (legal(buf[i])) emit(buf[i]);
          }
        for (const auto& lame : pp.initial_lame[us][s]) {
          if ((lame.path | bit(lame.to)) & occ) continue;
          if (Checks && !test(may_check, lame.to)) continue;
          if (evading && !is_royal && !test(evade, lame.to)) continue;
          if (pinned_here && !test_all && !test(t_->line(k, s), lame.to)) continue;
          Move m = make_move(s, lame.to, kDouble);
          if (test(pp.promote_zone[us], lame.to)) {
            for (char pt : p_->types[t].promote_choices[us]) {
              if (!promotable(us, pt)) continue;
              Move pm = make_move(s, lame.to, kPromote, pt);
              if ((!test_all && !test(disc, lame.to)) || legal(pm)) emit(pm);
            }
            if (!p_->types[t].promote_optional || test(pp.immobile[us], lame.to)) continue;
          }
          if ((!test_all && !test(disc, lame.to)) || legal(m)) emit(m);
        }
        if (ep_ >= 0 && test(pp.ep_capture[us][s], ep_)) {
          Move m = make_move(s, ep_, kEnPassant);
          if (legal(m)) emit(m);
        }
      }
      // A non-royal castling king (`king LETTER`: giveaway, extinction) castles through
      // attacked squares, as Fairy-Stockfish's non-royal kings do.
      if (p_->castling && (castle_royal_ ? k >= 0 && !in_check : true) && !royal_only_ &&
          (move_types_ >> p_->castling_king & 1)) {
        for (int side = 0; side < 2; ++side) {
          int right = us * 2 + side;
          if (!(castling_ & (1 << right))) continue;
          if (castle_need_[right] & occ) continue;
          bool ok = true;
          // Check rules forbid passing attacked squares: for a royal castling king, and
          // only with `royal-safe` (no check: the king may castle through them).
          if (castle_royal_ && guard)
            for (BB pb = castle_path_[right]; pb && ok; clear_lsb(pb))
              if ((Rich && blast_types_) ? blast_attacked(lsb(pb), them, occ) : attacked(lsb(pb), them, occ))
                ok = false;
          if (!ok) continue;
          Move m = make_move(castle_from_[right], rook_sq_[right], side == 0 ? kCastleK : kCastleQ);
          // A plain royal king (its safety is attacked() alone): its destination on the
          // occupancy after the castle, no make and unmake (only own pieces move).
          if constexpr (!Rich && !Pseudo)
            if (castle_royal_ && guard && plain_king_ && !facing_now_) {
              int kto, rto;
              castle_targets(kind_of(m), us, kto, rto);
              const BB after = (occ & ~bit(castle_from_[right]) & ~bit(rook_sq_[right])) | bit(kto) | bit(rto);
              if (!attacked(kto, them, after)) emit(m);
              continue;
            }
          if (legal(m)) emit(m);
        }
      }
    }
    if (p_->action_place && !royal_only_) {
      for (int t = 0; t < p_->ntypes; ++t) {
        if (reserve_[us][t] <= 0 && !flip_supply_) continue;
        if (royal_in_reserve && t != p_->royal_type) continue;
        const bool is_royal = t == p_->royal_type;
        BB zone = t_->place_zone[us] & ~occ;
        if (evading && !is_royal) zone &= evade;
        if (p_->types[t].must_promote) zone &= ~t_->pieces[t].promote_zone[us];
        zone = drop_squares(us, t, zone);
        if (flip_drops_) [[unlikely]]
          zone = flip::drop_zone(*p_, *t_, us, zone, own, opp);
        const bool test_drop = (in_check && !(evading && plain_king_)) || is_royal;
        const bool no_mate = p_->types[t].drop_no_mate && !Pseudo;
        for (; zone; clear_lsb(zone)) {
          Move m = make_move(0, lsb(zone), kPlace, t);
          if ((!(test_drop || test(disc, lsb(zone))) || legal(m)) && !(no_mate && drop_mates(m))) emit(m);
          if (p_->types[t].drop_promoted) [[unlikely]] {
            // shogi2 `drop promoted`: the same drop as the promoted type (from names the hand's type).
            Move pm = make_move(t + 1, lsb(zone), kPlace, p_->types[t].promote_to[0]);
            if ((!(test_drop || test(disc, lsb(zone))) || legal(pm)) && !(no_mate && drop_mates(pm)))
              emit(pm);
          }
        }
      }
    }
    return n;
  }
// clang-format on
