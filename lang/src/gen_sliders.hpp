// The rides by magic bitboards (issue 25): setup_sliders() decides, from the program's
// tables alone, whether the board is the plain 8x8 board, and which types check along all
// four orthogonal or diagonal directions; attacked(), pinned() and the move loop then
// look those rides up (gen_magic.hpp) and walk only the remaining directions ray by ray.
//
// A part of the body of class Generator (generator_impl.hpp includes it inside the
// class, in this place). Not a standalone header; include it nowhere else. clang-format
// would unindent it: it is formatted as part of the class.
// clang-format off

  static constexpr bool kMagic = std::is_same_v<BB, uint64_t>;
  static constexpr uint8_t kOrth = 0x55, kDiag = 0xAA;  // direction bits N E S W, NE SE SW NW

  void setup_sliders() {
    for (int c = 0; c < 2; ++c) {
      ep_from_[c].assign(p_->squares, BB{});
      for (int t = 0; t < p_->ntypes; ++t)
        for (int s = 0; s < p_->squares; ++s)
          for (BB e = t_->pieces[t].ep_capture[c][s]; e; clear_lsb(e)) ep_from_[c][lsb(e)] |= bit(s);
    }
    rook_ = bishop_ = nullptr;
    for (int c = 0; c < 2; ++c) {
      other_check_dirs_[c] = 0xFF;
      orth_check_types_[c] = diag_check_types_[c] = leap_check_types_[c] = 0;
      for (int t = 0; t < p_->ntypes; ++t)
        for (int s = 0; s < p_->squares; ++s)
          if (t_->pieces[t].check_from[c][s]) {
            leap_check_types_[c] |= 1u << t;
            break;
          }
    }
    if constexpr (kMagic) {
      if (p_->width != 8 || p_->height != 8) return;
      for (int d = 0; d < 8; ++d)
        for (int s = 0; s < 64; ++s) {
          uint64_t r = 0;
          for (int x = s % 8 + kDirDx[d], y = s / 8 + kDirDy[d]; x >= 0 && x < 8 && y >= 0 && y < 8;
               x += kDirDx[d], y += kDirDy[d])
            r |= uint64_t{1} << (y * 8 + x);
          if (t_->ray[d][s] != r) return;  // not the plain board: the ray loops stay
        }
      const magic::Tables& mt = magic::tables();
      rook_ = mt.rook;
      bishop_ = mt.bishop;
      for (int c = 0; c < 2; ++c) {
        uint8_t other = 0;
        for (int t = 0; t < p_->ntypes; ++t) {
          const uint8_t rc = t_->pieces[t].ride_check[c];
          if ((rc & kOrth) == kOrth) orth_check_types_[c] |= 1u << t;
          else other |= rc & kOrth;
          if ((rc & kDiag) == kDiag) diag_check_types_[c] |= 1u << t;
          else other |= rc & kDiag;
        }
        // seen from the attacked square: the opposite directions
        other_check_dirs_[c] = static_cast<uint8_t>(other << 4 | other >> 4);
      }
      setup_pawns();
    }
  }

  // What setup_sliders() and setup_pawns() set, from a generator of the same program.
  void copy_sliders(const Generator& o) {
    for (int c = 0; c < 2; ++c) ep_from_[c] = o.ep_from_[c];
    rook_ = o.rook_;
    bishop_ = o.bishop_;
    std::copy_n(o.orth_check_types_, 2, orth_check_types_);
    std::copy_n(o.diag_check_types_, 2, diag_check_types_);
    std::copy_n(o.leap_check_types_, 2, leap_check_types_);
    std::copy_n(o.other_check_dirs_, 2, other_check_dirs_);
    std::copy_n(o.pawn_types_, 2, pawn_types_);
    std::copy_n(o.lean_types_, 2, lean_types_);
    std::copy_n(o.royal_lean_, 2, royal_lean_);
    for (int c = 0; c < 2; ++c) {
      std::copy_n(o.pawn_double_[c], kMaxTypes, pawn_double_[c]);
      std::copy_n(o.pawn_pre_zone_[c], kMaxTypes, pawn_pre_zone_[c]);
    }
  }

  // The types whose tables are exactly an orthodox pawn's for a colour: one step forward
  // without capture, captures one step diagonally forward, a double step (over an empty
  // square) from some squares, no rides, nothing special, not royal.
  void setup_pawns() {
    for (int c = 0; c < 2; ++c) {
      pawn_types_[c] = lean_types_[c] = 0;
      for (int t = 0; t < p_->ntypes; ++t) {
        const PieceTables<BB>& pt = t_->pieces[t];
        bool lean = plain_type(t) && !pt.promote_zone[c];
        for (int s = 0; s < 64 && lean; ++s) lean = pt.initial_lame[c][s].empty() && !pt.ep_capture[c][s];
        if (lean) lean_types_[c] |= 1u << t;
      }
      const int fwd = c == 0 ? 1 : -1;
      for (int t = 0; t < p_->ntypes; ++t) {
        const PieceTables<BB>& pt = t_->pieces[t];
        if (pt.ride_move[c] || pt.ride_capture[c] || pt.line_jumps || !plain_type(t)) continue;
        bool ok = true;
        BB dbl{}, pre{};
        for (int s = 0; s < 64 && ok; ++s) {
          const int x = s % 8, y = s / 8 + fwd;
          auto sq = [&](int dx, int dy) {
            return x + dx >= 0 && x + dx < 8 && dy >= 0 && dy < 8 ? uint64_t{1} << (dy * 8 + x + dx) : 0;
          };
          ok = pt.leap_move[c][s] == sq(0, y) && pt.leap_capture[c][s] == (sq(-1, y) | sq(1, y)) &&
               !(pt.ep_capture[c][s] & ~pt.leap_capture[c][s]);
          BB reach = pt.leap_move[c][s] | pt.leap_capture[c][s];
          const auto& lames = pt.initial_lame[c][s];
          if (!lames.empty()) {
            ok = ok && lames.size() == 1 && lames[0].path == sq(0, y) && sq(0, y + fwd) &&
                 bit(lames[0].to) == sq(0, y + fwd);
            dbl |= bit(s);
            if (ok) reach |= bit(lames[0].to);
          }
          if (reach & pt.promote_zone[c]) pre |= bit(s);
        }
        if (!ok) continue;
        pawn_types_[c] |= 1u << t;
        pawn_double_[c][t] = dbl;
        pawn_pre_zone_[c][t] = pre;
      }
      lean_types_[c] &= ~pawn_types_[c];
      // The royal type, when its moves are its leap and ride tables alone for colour c.
      const int r = p_->royal_type;
      royal_lean_[c] = r >= 0 && !t_->pieces[r].promote_zone[c];
      for (int s = 0; s < 64 && royal_lean_[c]; ++s)
        royal_lean_[c] = t_->pieces[r].initial_lame[c][s].empty() && !t_->pieces[r].ep_capture[c][s];
    }
  }
  // A type whose moves are its leap and ride tables alone (no specials, not royal).
  bool plain_type(int t) const {
    const PieceProgram& prog = p_->types[t];
    return !t_->pieces[t].special && !prog.special() && !(p_->royal_types >> t & 1) && !prog.promote_leaving &&
           !prog.borrows && !prog.teleport_move && !prog.teleport_capture && prog.limited[0].empty() &&
           prog.limited[1].empty() && prog.own_leaps[0].empty() && prog.own_leaps[1].empty() &&
           prog.region_leaps[0].empty() && prog.region_leaps[1].empty();
  }

  // Leaf counting of the side to move's unpinned pieces that need no test: the pawns that
  // cannot reach the promotion zone (steps, double steps and captures by shifts; en
  // passant by the full test) and the lean types. Returns the pieces counted (the move
  // loop skips them).
  template <class Legal>
  // k: the royal square when the royal piece is plain_king_'s (guarded), else -1.
  ARB_INLINE BB count_pawns(int us, int k, const BB& pins, const BB& occ, const BB& opp, uint64_t& total,
                            Legal&& legal) {
    BB done{};
    // Counted in a local (the caller's count lives in memory: its emit lambda takes it by
    // reference), so the per-piece additions do not wait on a store and a load each.
    uint64_t n = 0;
    if constexpr (kMagic)
      for (uint32_t m = pawn_types_[us]; m; m &= m - 1) {
        const int t = __builtin_ctz(m);
        const BB P = pieces(us, t) & ~pins & ~pawn_pre_zone_[us][t];
        if (!P) continue;
        constexpr BB kNotA = ~0x0101010101010101ull, kNotH = ~0x8080808080808080ull;
        const bool white = us == 0;
        auto fwd = [white](BB b) { return white ? b << 8 : b >> 8; };
        const BB single = fwd(P) & ~occ;
        const BB dbl = fwd(fwd(P & pawn_double_[us][t]) & ~occ) & ~occ;
        const BB west = white ? (P & kNotA) << 7 : (P & kNotA) >> 9;
        const BB east = white ? (P & kNotH) << 9 : (P & kNotH) >> 7;
        // A double step's target is no single step's (that pawn would stand on the square
        // passed, which must be empty): one count for both.
        n += count(single | dbl) + count(west & opp) + count(east & opp);
        if (ep_ >= 0)
          for (BB b = P; b; clear_lsb(b))
            if (test(t_->pieces[t].ep_capture[us][lsb(b)], ep_) && legal(make_move(lsb(b), ep_, kEnPassant))) ++n;
        done |= P;
      }
    // The unpinned leapers and riders: their destinations, counted.
    for (uint32_t m = lean_types_[us]; m; m &= m - 1) {
      const int t = __builtin_ctz(m);
      const PieceTables<BB>& pp = t_->pieces[t];
      const BB P = pieces(us, t) & ~pins;
      for (BB b = P; b; clear_lsb(b)) {
        const int s = lsb(b);
        BB quiet = pp.leap_move[us][s] & ~occ, caps = pp.leap_capture[us][s] & opp;
        rides(pp, us, s, occ, opp, quiet, caps);
        n += count(quiet | caps);
      }
      done |= P;
    }
    // The one plain royal piece on k (not in check: the caller counts only then), when its
    // moves are its tables alone: each destination by the attack test on the occupancy
    // without it, as the move loop's by_occupancy test judges it.
    if (k >= 0 && royal_lean_[us]) {
      const PieceTables<BB>& pp = t_->pieces[board_[k] >> 1];
      BB quiet = pp.leap_move[us][k] & ~occ, caps = pp.leap_capture[us][k] & opp;
      rides(pp, us, k, occ, opp, quiet, caps);
      const BB without = occ & ~bit(k);
      for (BB tb = quiet | caps; tb; clear_lsb(tb)) n += !attacked(lsb(tb), us ^ 1, without);
      done |= bit(k);
    }
    total += n;
    return done;
  }

  // The rides of a piece on s: its quiet and capturing destinations added to `quiet` and
  // `caps` (captures on `tg`).
  ARB_INLINE void rides(const PieceTables<BB>& pp, int us, int s, const BB& occ, const BB& tg, BB& quiet,
                        BB& caps) const {
    const uint8_t mv = pp.ride_move[us], cp = pp.ride_capture[us];
    uint8_t dm = mv | cp;
    if (!dm) return;
    if constexpr (kMagic)
      if (rook_) {
        if ((mv & cp & kOrth) == kOrth) {
          const BB r = rook_[s].attacks(occ);
          quiet |= r & ~occ;
          caps |= r & tg;
          dm &= ~kOrth;
        }
        if ((mv & cp & kDiag) == kDiag) {
          const BB r = bishop_[s].attacks(occ);
          quiet |= r & ~occ;
          caps |= r & tg;
          dm &= ~kDiag;
        }
      }
    for (; dm; dm &= dm - 1) {
      const int d = __builtin_ctz(dm);
      const BB r = ride(d, s, occ);
      if (mv & (1u << d)) quiet |= r & ~occ;
      if (cp & (1u << d)) caps |= r & tg;
    }
  }

  // The number of squares in b, inline (the build targets no popcnt instruction, and the
  // library's popcount is a call).
  ARB_INLINE static int count(const BB& b) {
    if constexpr (kMagic) {
      uint64_t x = b - ((b >> 1) & 0x5555555555555555ull);
      x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
      x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
      return static_cast<int>((x * 0x0101010101010101ull) >> 56);
    } else {
      return popcount(b);
    }
  }

  // The pieces of colour c of the types in a mask.
  ARB_INLINE BB typed(int c, uint32_t mask) const {
    BB b{};
    for (; mask; mask &= mask - 1) b |= by_type_[__builtin_ctz(mask)];
    return b & by_color_[c];
  }
// clang-format on
