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
    }
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
