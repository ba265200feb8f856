// Perft over complete turns, and the count of the royal moves after a move.
//
// A part of the body of class Generator (generator_impl.hpp includes it inside the
// class, in this place): member functions moved out of generator.cpp unchanged, so
// the class and its inlining are as they were. Not a standalone header; include it
// nowhere else. clang-format would unindent it: it is formatted as part of the class.
// clang-format off

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
