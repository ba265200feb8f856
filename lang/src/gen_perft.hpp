// Perft over complete turns, and the count of the royal moves after a move.
//
// A part of the body of class Generator (generator_impl.hpp includes it inside the
// class, in this place): member functions moved out of generator.cpp unchanged, so
// the class and its inlining are as they were. Not a standalone header; include it
// nowhere else. clang-format would unindent it: it is formatted as part of the class.
// clang-format off

  // ---- perft by board-only steps ----------------------------------------------------------
  // Perft reads only the board, the side to move, the en-passant square and the castling
  // rights: generation reads no hash, clock or history (repetition and the clocks are
  // status()'s) unless a counted end, a pass or a turn layer does. For programs whose every
  // step is a plain move (no placements, hands, conversions, walls, explosions, rampages or
  // strikes: what make() does beyond the board), perft plays the steps on those fields alone
  // and keeps what it overwrites in a small record on the C++ stack: no hash, no undo or
  // history stack. The state after it is the state before it.
  bool plain_steps() const {
    if (rich_ || royal_take_ || hand_ || marks_ || ends_any_ || counting_checks_ || convert_types_ || blast_types_ ||
        petrify_types_ || wall_rule_ != Program::WallRule::None || p_->action_place || pass_ || p_->pass ||
        (!stack_.empty() && !stack_.back().ends_turn))
      return false;
    for (int t = 0; t < p_->ntypes; ++t)
      if (p_->types[t].ep_marks_path) return false;
    return true;
  }
  struct PlainUndo {
    int8_t moved, captured;
    int16_t ep, ep_victim;
    uint8_t castling;
  };
  ARB_INLINE PlainUndo make_plain(Move m) {
    const int us = side_, from = from_of(m), to = to_of(m);
    const uint32_t k = kind_of(m);
    PlainUndo u{board_[from], -1, static_cast<int16_t>(ep_), static_cast<int16_t>(ep_victim_), castling_};
    ep_ = ep_victim_ = -1;
    if (k == kCastleK || k == kCastleQ) {
      int kto, rto;
      castle_targets(k, us, kto, rto);
      shift_pair(from, to, kto, rto);
    } else {
      const int victim = k == kEnPassant ? u.ep_victim : to;
      if (board_[victim] >= 0) {
        u.captured = board_[victim];
        remove(victim);
      }
      remove(from);
      put(to, k == kPromote ? type_of(m) * 2 + us : u.moved);
      if (k == kDouble)
        for (const auto& l : t_->pieces[u.moved >> 1].initial_lame[us][from])
          if (l.to == to) {
            if (l.path) set_ep_if_capturable<false>(us == 0 ? msb(l.path) : lsb(l.path), to);
            break;
          }
    }
    castling_ &= static_cast<uint8_t>(~castle_clear_[from] & ~castle_clear_[to]);
    side_ ^= 1;
    return u;
  }
  ARB_INLINE void unmake_plain(Move m, const PlainUndo& u) {
    side_ ^= 1;
    const int from = from_of(m), to = to_of(m);
    const uint32_t k = kind_of(m);
    if (k == kCastleK || k == kCastleQ) {
      int kto, rto;
      castle_targets(k, side_, kto, rto);
      shift_pair(kto, rto, from, to);
    } else {
      remove(to);
      put(from, u.moved);
      if (u.captured >= 0) put(k == kEnPassant ? u.ep_victim : to, u.captured);
    }
    ep_ = u.ep;
    ep_victim_ = u.ep_victim;
    castling_ = u.castling;
  }
  uint64_t perft_plain(int depth) {
    if (depth <= 1) return depth <= 0 ? 1 : generate<true>(nullptr);
    if (static_cast<int>(buffers_.size()) <= depth) buffers_.resize(depth + 1);
    std::vector<Move>& moves = buffers_[depth];
    moves.clear();
    generate<false>(&moves);
    uint64_t n = 0;
    for (size_t i = 0; i < moves.size(); ++i) {
      const Move m = buffers_[depth][i];
      const PlainUndo u = make_plain(m);
      n += perft_plain(depth - 1);
      unmake_plain(m, u);
    }
    return n;
  }

  // Perft over complete turns (RULINGS 4.9): each normal action alone, and followed by each
  // king-turn when the colour has one and the action did not win by midline invasion.
  // legal_actions' walk without building the actions.
  uint64_t perft_turns(int depth) {
    if (depth <= 0) return 1;
    if (static_cast<int>(buffers_.size()) <= depth) buffers_.resize(depth + 1);
    if (static_cast<int>(seconds_.size()) <= depth) seconds_.resize(depth + 1);
    buffers_[depth].clear();
    generate<false>(&buffers_[depth]);
    const bool second = turn_phase_ || p_->king_turn[side_];
    uint64_t n = 0;
    for (size_t i = 0; i < buffers_[depth].size(); ++i) {
      const Move m = buffers_[depth][i];
      if (depth == 1) {
        ++n;
      } else {
        make(m);
        n += perft_turns(depth - 1);
        unmake();
      }
      if (!second) continue;
      if (depth == 1 && !p_->action_place) {
        n += count_royal_moves_after(m);
        continue;
      }
      make(m, /*ends_turn=*/false);
      if (!(p_->invasion && invaded(side_))) {
        royal_only_ = true;
        if (depth == 1) {
          n += generate<true>(nullptr);
          royal_only_ = false;
        } else {
          std::vector<Move>& s2 = seconds_[depth];
          s2.clear();
          generate<false>(&s2);
          royal_only_ = false;
          for (size_t j = 0; j < s2.size(); ++j) {
            make(s2[j]);
            n += perft_turns(depth - 1);
            unmake();
          }
        }
      }
      unmake();
    }
    return n;
  }

  // The number of royal-move steps after the normal action m (none when m wins by midline
  // invasion), on the board alone: the royal-move phase reads no clock, hash, castling
  // right or en-passant square (no castling then; a double step's en passant waits for
  // the end of the turn), so perft's last ply needs no make/unmake. Not with placements
  // (light_make leaves the reserves).
  uint64_t count_royal_moves_after(Move m) {
    const int moved = kind_of(m) == kPlace ? -1 : board_[from_of(m)];
    const Light l = light_make(m);
    // The pieces a whirlwind or a rampage removed: generate's legality tests use lrem_ too.
    std::array<std::pair<int16_t, int8_t>, 16> removed;
    const int nremoved = sub_of(m) ? nlrem_ : 0;
    std::copy_n(lrem_.begin(), nremoved, removed.begin());
    const int ep = ep_, ep_victim = ep_victim_;
    ep_ = ep_victim_ = -1;
    uint64_t n = 0;
    if (!(p_->invasion && invaded(side_))) {
      royal_only_ = true;
      n = generate<true>(nullptr);
      royal_only_ = false;
    }
    ep_ = ep;
    ep_victim_ = ep_victim;
    std::copy_n(removed.begin(), nremoved, lrem_.begin());
    nlrem_ = nremoved;
    light_unmake(m, l, moved);
    return n;
  }
// clang-format on
