// Board updates, attack tests and legality: pieces put and removed, rides, attacks, pins,
// castling squares, the light make/unmake, safe_after, and the counted end conditions.
//
// A part of the body of class Generator (generator_impl.hpp includes it inside the
// class, in this place): member functions moved out of generator.cpp unchanged, so
// the class and its inlining are as they were. Not a standalone header; include it
// nowhere else. clang-format would unindent it: it is formatted as part of the class.
// clang-format off

  ARB_INLINE void put(int s, int code) {
    board_[s] = static_cast<int8_t>(code);
    by_color_[code & 1] |= bit(s);
    by_type_[code >> 1] |= bit(s);
  }
  ARB_INLINE void remove(int s) {
    int code = board_[s];
    board_[s] = -1;
    by_color_[code & 1] &= ~bit(s);
    by_type_[code >> 1] &= ~bit(s);
  }

  // Squares a rider reaches from s along direction d, stopping at (and including) the
  // first occupied square.
  ARB_INLINE BB ride(int d, int s, const BB& occ) const {
    BB r = t_->ray[d][s];
    BB blockers = r & occ;
    if (!blockers) return r;
    int b = (kDirUp >> d & 1) ? lsb(blockers) : msb(blockers);
    return r & ~t_->ray[d][b];
  }
  // First occupied square from s along d, or -1.
  ARB_INLINE int first(int d, int s, const BB& occ) const {
    BB blockers = t_->ray[d][s] & occ;
    if (!blockers) return -1;
    return (kDirUp >> d & 1) ? lsb(blockers) : msb(blockers);
  }

  ARB_INLINE bool attacked(int s, int by, const BB& occ) const {
    for (uint32_t m = leap_check_types_[by]; m; m &= m - 1) {
      const int t = __builtin_ctz(m);
      if (t_->pieces[t].check_from[by][s] & pieces(by, t) & occ) return true;
    }
    uint8_t dirs = 0xFF;
    if constexpr (kMagic)
      if (rook_) {
        // the full rook and bishop rides by lookup (a piece left out of occ attacks nothing)
        if (const uint32_t o = orth_check_types_[by])
          if (rook_[s].attacks(occ) & typed(by, o) & occ) return true;
        if (const uint32_t g = diag_check_types_[by])
          if (bishop_[s].attacks(occ) & typed(by, g) & occ) return true;
        dirs = other_check_dirs_[by];
      }
    for (; dirs; dirs &= dirs - 1) {
      const int d = __builtin_ctz(dirs);
      int b = first(d, s, occ);
      if (b < 0) continue;
      int code = board_[b];
      if (code < 0 || (code & 1) != by) continue;
      if (t_->pieces[code >> 1].ride_check[by] & (1u << ((d + 4) & 7))) return true;
    }
    if (borrowing_ && borrowed_attack(s, by, occ)) return true;
    if (animal_attacks_) return animal_attack(s, by, occ);
    return false;
  }

  // `royal-stays-in-check` (gen_misc.hpp): of the captures `caps` of the royal piece on k in
  // check, those that take its only checker: k is no longer attacked without the victim
  // (Fairy-Stockfish's makpongRule: `checkers() ^ to` empty).
  BB royal_in_check_targets(int k, int by, BB caps, const BB& occ) const {
    BB out{};
    for (BB b = caps; b; clear_lsb(b))
      if (!attacked(k, by, occ & ~bit(lsb(b)))) out |= bit(lsb(b));
    return out;
  }

  // The squares where an action of a non-royal piece may end a check on the royal piece on
  // k by `by` (plain programs: leaps and rides only): the checker's square, and the squares
  // between it and k when it rides there (a leap cannot be blocked). None in double check.
  BB evasion_squares(int k, int by, const BB& occ) const {
    BB checkers{};
    for (int t = 0; t < p_->ntypes; ++t) checkers |= t_->pieces[t].check_from[by][k] & pieces(by, t) & occ;
    const BB leapers = checkers;
    BB blocks{};
    for (int d = 0; d < 8; ++d) {
      const int b = first(d, k, occ);
      if (b < 0 || board_[b] < 0 || (board_[b] & 1) != by) continue;
      if (!(t_->pieces[board_[b] >> 1].ride_check[by] & (1u << ((d + 4) & 7)))) continue;
      checkers |= bit(b);
      if (!test(leapers, b)) blocks |= t_->between(k, b);
    }
    if (popcount(checkers) != 1) return BB{};
    return checkers | blocks;
  }

  // Whether type t's whirlwind attacks no square its own capturing moves do not attack
  // already (a warrior king's radius-1 whirlwind and its king step): then attacked() need
  // not look at the whirlwind (a whirlwind from q reaches s when s is around q).
  bool whirl_covered(int t) const {
    const PieceTables<BB>& pt = t_->pieces[t];
    for (int c = 0; c < 2; ++c)
      for (int s = 0; s < p_->squares; ++s)
        if (pt.around[s] & ~pt.check_from[c][s]) return false;
    return true;
  }

  // Whether a piece of `by` attacks s with movement borrowed from a neighbour (RULINGS 4.7).
  [[gnu::noinline]] bool borrowed_attack(int s, int by, const BB& occ) const {
    for (int t = 0; t < p_->ntypes; ++t) {
      const uint32_t lends = p_->types[t].borrows;
      if (!lends) continue;
      for (BB b = pieces(by, t) & occ; b; clear_lsb(b)) {
        const int q = lsb(b);
        for (BB nb = t_->pieces[t].lenders[q] & by_color_[by] & occ; nb; clear_lsb(nb)) {
          const int u = board_[lsb(nb)] >> 1;
          if (!(lends >> u & 1)) continue;
          const PieceTables<BB>& lt = t_->pieces[u];
          if (test(lt.check_from[by][s], q)) return true;
          const int d = t_->dir[q][s];
          if (d >= 0 && (lt.ride_check[by] >> d & 1) && !(t_->between(q, s) & occ)) return true;
        }
      }
    }
    return false;
  }

  ARB_INLINE BB pinned(int k, int us) const {
    BB pins{};
    BB occ = occupied();
    uint8_t dirs = 0xFF;
    if constexpr (kMagic)
      if (rook_ && !borrowing_) {
        // Stockfish's way: the enemy full riders on k's lines of an empty board, and one
        // piece between, ours. The other directions are walked below.
        const int them = us ^ 1;
        BB snipers{};
        if (const uint32_t o = orth_check_types_[them]) snipers |= rook_[k].attacks(0) & typed(them, o);
        if (const uint32_t g = diag_check_types_[them]) snipers |= bishop_[k].attacks(0) & typed(them, g);
        for (; snipers; clear_lsb(snipers)) {
          const BB b = t_->between(k, lsb(snipers)) & occ;
          if (b && !(b & (b - 1)) && (b & by_color_[us])) pins |= b;
        }
        dirs = other_check_dirs_[them];
      }
    for (; dirs; dirs &= dirs - 1) {
      const int d = __builtin_ctz(dirs);
      int b1 = first(d, k, occ);
      if (b1 < 0 || board_[b1] < 0 || (board_[b1] & 1) != us) continue;
      int b2 = first(d, b1, occ);
      if (b2 < 0) continue;
      int code = board_[b2];
      if (code < 0 || (code & 1) == us) continue;  // a wall square pins nothing
      unsigned rd = t_->pieces[code >> 1].ride_check[us ^ 1];
      if (borrowing_ && p_->types[code >> 1].borrows) rd |= borrowed_rides(b2, code >> 1, us ^ 1);
      if (rd & (1u << ((d + 4) & 7))) pins |= bit(b1);
    }
    return pins;
  }

  // The ride directions (with check) a piece of type t and colour c on q borrows.
  [[gnu::noinline]] unsigned borrowed_rides(int q, int t, int c) const {
    unsigned dirs = 0;
    for (BB nb = t_->pieces[t].lenders[q] & by_color_[c]; nb; clear_lsb(nb)) {
      const int u = board_[lsb(nb)] >> 1;
      if (p_->types[t].borrows >> u & 1) dirs |= t_->pieces[u].ride_check[c];
    }
    return dirs;
  }

  // The king's and the rook's destinations of a castling move of the side to move (`side`).
  ARB_INLINE void castle_targets(uint32_t kind, int side, int& kto, int& rto) const {
    int rank = side == 0 ? p_->castling_rank - 1 : p_->height - p_->castling_rank;
    kto = rank * p_->width + (kind == kCastleK ? p_->ks_king_to : p_->qs_king_to);
    rto = rank * p_->width + (kind == kCastleK ? p_->ks_rook_to : p_->qs_rook_to);
  }
  // Moves king and rook between their castling squares (either direction).
  ARB_INLINE void shift_pair(int kfrom, int rfrom, int kto, int rto) {
    int kc = board_[kfrom], rc = board_[rfrom];
    remove(kfrom);
    remove(rfrom);
    put(kto, kc);
    put(rto, rc);
  }

  // Board-only make and unmake, for legality tests.
  struct Light {
    int8_t captured;
    int victim_sq;
    bool blast;  // the capture exploded: lrem_ holds what it removed
  };
  // Removes the pieces a rampage from `from` to `to` or a strike on `to` takes off,
  // recording them in `out` (nearest first); returns how many.
  template <class Out>
  int remove_effect(Move m, Out&& out) {
    const int from = from_of(m), to = to_of(m);
    if (sub_of(m) == kSubStrike) {
      out(to, board_[to]);
      remove(to);
      return 1;
    }
    if (sub_of(m) == kSubWhirl) {
      int n = 0;
      for (BB v = whirl_victims(from); v; clear_lsb(v), ++n) {
        out(lsb(v), board_[lsb(v)]);
        remove(lsb(v));
      }
      return n;
    }
    int n = 0;
    for (BB path = t_->between(from, to) | bit(to); path; clear_lsb(path)) {
      const int q = lsb(path);
      if (board_[q] < 0) continue;
      out(q, board_[q]);
      remove(q);
      ++n;
    }
    return n;
  }
  // Blast: the program's captures may explode (only the general loop runs such programs).
  template <bool Blast = true>
  ARB_INLINE Light light_make(Move m) {
    int from = from_of(m), to = to_of(m);
    uint32_t k = kind_of(m);
    Light l{-1, -1, false};
    if (sub_of(m)) {
      nlrem_ = 0;
      remove_effect(m, [&](int q, int code) {
        lrem_[nlrem_++] = {static_cast<int16_t>(q), static_cast<int8_t>(code)};
      });
      if (sub_of(m) == kSubRampage) {
        int code = board_[from];
        remove(from);
        put(to, code);
      }
      return l;
    }
    if (k == kPlace) {
      put(to, type_of(m) * 2 + side_);
      return l;
    }
    if (k == kCastleK || k == kCastleQ) {
      int kto, rto;
      castle_targets(k, side_, kto, rto);
      shift_pair(from, to, kto, rto);
      return l;
    }
    int victim = k == kEnPassant ? ep_victim_ : to;
    if (board_[victim] >= 0) {
      l.captured = board_[victim];
      l.victim_sq = victim;
      remove(victim);
    }
    int code = board_[from];
    remove(from);
    put(to, k == kPromote ? type_of(m) * 2 + side_ : code);
    if (Blast && l.captured >= 0 && (blast_types_ >> (code >> 1) & 1)) [[unlikely]]
      l.blast = light_explosion(code >> 1, to);
    return l;
  }
  template <bool Blast = true>
  ARB_INLINE void light_unmake(Move m, Light l, int moved_code) {
    int from = from_of(m), to = to_of(m);
    uint32_t k = kind_of(m);
    if (sub_of(m)) {
      if (sub_of(m) == kSubRampage) {
        remove(to);
        put(from, moved_code);
      }
      for (int i = 0; i < nlrem_; ++i) put(lrem_[i].first, lrem_[i].second);
      return;
    }
    if (k == kPlace) {
      remove(to);
      return;
    }
    if (k == kCastleK || k == kCastleQ) {
      int kto, rto;
      castle_targets(k, side_, kto, rto);
      shift_pair(kto, rto, from, to);
      return;
    }
    if (Blast && l.blast) [[unlikely]]
      light_restore();
    remove(to);
    put(from, moved_code);
    if (l.captured >= 0) put(l.victim_sq, l.captured);
  }

  // Whether the side to move's royal piece is safe after m (and royals stay apart).
  // `only_mover`: with several royal pieces, a royal piece's plain move that can expose no
  // other (not in check, not pinned, no rampage or strike lines): only its destination is
  // tested.
  // Rich: called from the general loop, where captures may explode.
  template <bool Rich = true>
  bool safe_after(Move m, bool only_mover = false) {
    if constexpr (Rich)
      if (blast_types_) return safe_after_blast(m);
    // Without rampages (whose blockers are read from the board, not the occupancy) and
    // without royals kept apart, attacked() sees the board after a royal piece's plain
    // move or a whirlwind through the occupancy alone: no make and unmake. Not with
    // borrowing for the plain move (a captured lender would still lend).
    if (occupancy_tests_) {
      if (only_mover && !borrowing_)
        return !attacked(to_of(m), side_ ^ 1, (occupied() & ~bit(from_of(m))) | bit(to_of(m)));
      if (sub_of(m) == kSubWhirl) {
        const BB v = whirl_victims(from_of(m));
        if (!(v & (royals(0) | royals(1)))) {
          if (!p_->royal_safe) return true;
          const BB occ = occupied() & ~v;
          for (BB r = royals(side_); r; clear_lsb(r))
            if (attacked(lsb(r), side_ ^ 1, occ)) return false;
          return true;
        }
      }
    }
    int moved = kind_of(m) == kPlace ? -1 : board_[from_of(m)];
    Light l = light_make<Rich>(m);
    int k = royal_square(side_);
    bool ok = true;
    if (only_mover)
      ok = !attacked(to_of(m), side_ ^ 1, occupied());
    else if (multi_royal_)
      ok = !p_->royal_safe || !royals_in_check(side_);
    else if (k >= 0 && p_->royal_safe)
      ok = !attacked(k, side_ ^ 1, occupied());
    if (ok && k >= 0 && p_->royals_apart) {
      int ek = royal_square(side_ ^ 1);
      if (ek >= 0 && test(t_->adjacent[k], ek)) ok = false;
    }
    if (ok && (p_->royals_not_facing || p_->no_check_given || facing_now_)) ok = judged_after();
    light_unmake<Rich>(m, l, moved);
    return ok;
  }

  // The conditions judged on the board after an action (light_make'd, the mover still to
  // move): `royals-not-facing`, no royal pieces of the two sides on one file or rank with
  // nothing between (the flying general); `no-check-given`, no enemy royal piece attacked.
  [[gnu::noinline]] bool judged_after() const {
    if (p_->royals_not_facing || facing_now_) {
      const BB occ = occupied();
      for (BB a = royals(side_); a; clear_lsb(a))
        for (BB b = royals(side_ ^ 1); b; clear_lsb(b)) {
          const int d = t_->dir[lsb(a)][lsb(b)];
          if (d >= 0 && d % 2 == 0 && !(t_->between(lsb(a), lsb(b)) & occ)) return false;
        }
    }
    if (p_->no_check_given && royals_attacked(side_ ^ 1)) return false;
    return true;
  }

  // safe_after() where captures explode: an action removing an own royal piece is illegal
  // (with `royal-safe`); one removing an enemy royal piece wins at once (with
  // `royal-capture -> win`), so it is legal whatever it leaves attacked; otherwise no own
  // royal piece may be left attacked by a capture that would be legal.
  [[gnu::noinline]] bool safe_after_blast(Move m) {
    const int moved = kind_of(m) == kPlace ? -1 : board_[from_of(m)];
    const int own = popcount(royals(side_)), theirs = popcount(royals(side_ ^ 1));
    Light l = light_make(m);
    bool ok = true;
    if (p_->royal_safe && popcount(royals(side_)) < own) {
      ok = false;
    } else if (!(p_->royal_capture && popcount(royals(side_ ^ 1)) < theirs)) {
      if (p_->royal_safe) ok = !royals_attacked(side_);
      const int k = royal_square(side_), ek = royal_square(side_ ^ 1);
      if (ok && p_->royals_apart && k >= 0 && ek >= 0 && test(t_->adjacent[k], ek)) ok = false;
    }
    light_unmake(m, l, moved);
    return ok;
  }

  // Generates legal moves into `out`, or only counts them when Count is set.
  // Programs without Chess 2's primitives run a copy of the generator without them.
  template <bool Count>
  uint64_t generate(std::vector<Move>* out) {
    if (ends_any_) [[unlikely]]
      return generate_ends<Count>(out);
    return generate_moves<Count>(out);
  }

  // Issue 24 (gen_ends.hpp): a game a counted end condition has ended has no action;
  // `must-capture` keeps the captures when there is one.
  ends::Verdict counted_verdict() const {
    if (p_->pass) {
      const ends::Verdict v = pass_verdict();
      if (v.over) return v;
    }
    if (counting_checks_) {
      const ends::Verdict v = ends::checks(side_, checks_left_);
      if (v.over) return v;
    }
    if (flip_ends_) {
      const ends::Verdict v = flip_verdict();
      if (v.over) return v;
    }
    return ends::extinction(*p_, side_, [this](int c, int t) {
      if (t < 0) {
        int n = popcount(by_color_[c]);
        for (int u = 0; u < p_->ntypes; ++u) n += reserve_[c][u];
        return n;
      }
      return popcount(pieces(c, t)) + reserve_[c][t];
    });
  }
// clang-format on
