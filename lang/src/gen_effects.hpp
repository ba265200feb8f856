// Capture effects and special attacks: duple check, explosions, capture targets, borrowed
// moves, regions, rampages and strikes, path and animal attacks, actions in place.
//
// A part of the body of class Generator (generator_impl.hpp includes it inside the
// class, in this place): member functions moved out of generator.cpp unchanged, so
// the class and its inlining are as they were. Not a standalone header; include it
// nowhere else. clang-format would unindent it: it is formatted as part of the class.
// clang-format off

  // ---- gen_pawns: `duple-check`: a colour holding several royal pieces is in check only
  // when every one is attacked (Fairy-Stockfish's dupleCheck, spartan); otherwise, any.
  bool royals_in_check(int c) const {
    if (!p_->duple_check) return royals_attacked(c);
    const BB rs = royals(c);
    if (!rs) return false;
    const BB occ = occupied();
    for (BB b = rs; b; clear_lsb(b))
      if (!attacked(lsb(b), c ^ 1, occ)) return false;
    return true;
  }
  // Colour c has lost its royal pieces (none on the board, none in reserve to place).
  bool royal_lost(int c) const {
    return !royals(c) && !(p_->royal_type >= 0 && reserve_[c][p_->royal_type] > 0);
  }
  // The pieces a whirlwind from s removes: every piece around it but immune and spared ones.
  BB whirl_victims(int s) const {
    const PieceProgram& pp = p_->types[board_[s] >> 1];
    BB v = t_->pieces[board_[s] >> 1].around[s] & occupied();
    for (uint32_t m = immune_types_ | pp.around.kept; m; m &= m - 1) v &= ~by_type_[__builtin_ctz(m)];
    return v;
  }
  // The pieces among `occ` an explosion of a capture by type t on `to` removes besides the
  // capturer: every piece around `to` but immune and spared ones.
  BB blast_victims(int t, int to, const BB& occ) const {
    BB v = t_->pieces[t].around[to] & occ;
    for (uint32_t m = immune_types_ | p_->types[t].around.kept; m; m &= m - 1)
      v &= ~by_type_[__builtin_ctz(m)];
    return v;
  }
  // Removes what the capture by type t just made on `to` blows up (the capturer last, with
  // `self`), recording each piece in `out`; returns how many.
  template <class Out>
  int explode(int t, int to, Out&& out) {
    int n = 0;
    for (BB v = blast_victims(t, to, occupied()); v; clear_lsb(v), ++n) {
      out(lsb(v), board_[lsb(v)]);
      remove(lsb(v));
    }
    if (p_->types[t].around.self) {
      out(to, board_[to]);
      remove(to);
      ++n;
    }
    return n;
  }
  // The explosions of make() and unmake(), recorded in removed_ (hashed, castling rights
  // of the squares dropped), and of light_make() and light_unmake(), in lrem_. Out of line:
  // plain chess's make and unmake keep their size.
  [[gnu::noinline]] int make_explosion(int t, int to) {
    const Zobrist<N>& z = zob<N>();
    return explode(t, to, [&](int q, int code) {
      removed_.push_back({static_cast<int16_t>(q), static_cast<int8_t>(code)});
      hash_ ^= z.psq[code & 1][code >> 1][q];
      castling_ &= static_cast<uint8_t>(~castle_clear_[q]);
    });
  }
  [[gnu::noinline]] void restore_removed(int n) {
    for (int i = 0; i < n; ++i) {
      put(removed_.back().first, removed_.back().second);
      removed_.pop_back();
    }
  }
  [[gnu::noinline]] bool light_explosion(int t, int to) {
    nlrem_ = 0;
    explode(t, to, [&](int q, int c) {
      lrem_[nlrem_++] = {static_cast<int16_t>(q), static_cast<int8_t>(c)};
    });
    return true;
  }
  [[gnu::noinline]] void light_restore() {
    for (int i = nlrem_ - 1; i >= 0; --i) put(lrem_[i].first, lrem_[i].second);
  }
  // describe()'s explosion: the pieces it removes after the victim, the capturer last.
  void describe_blast(Move m, int victim, Step& s) const {
    const int from = from_of(m), to = to_of(m), t = board_[from] >> 1;
    const BB occ = occupied() & ~bit(from) & ~bit(victim);
    for (BB v = blast_victims(t, to, occ); v; clear_lsb(v))
      s.removed.push_back({coord(lsb(v)), letter(board_[lsb(v)])});
    if (p_->types[t].around.self)
      s.removed.push_back(
          {coord(to), letter(kind_of(m) == kPromote ? type_of(m) * 2 + side_ : board_[from])});
  }
  // An attack on s by colour `by` where captures explode: a capture whose explosion would
  // remove one of the capturer's own royal pieces is illegal, so it attacks nothing (atomic
  // chess: a king beside the enemy king is never in check).
  [[gnu::noinline]] bool blast_attacked(int s, int by, const BB& occ) const {
    uint32_t harmless = 0;
    const BB own_royals = royals(by) & occ;
    for (uint32_t m = blast_types_; m; m &= m - 1) {
      const int t = __builtin_ctz(m);
      if ((blast_victims(t, s, occ) & own_royals) || (p_->types[t].around.self && (p_->royal_types >> t & 1)))
        harmless |= 1u << t;
    }
    for (int t = 0; t < p_->ntypes; ++t)
      if (!(harmless >> t & 1) && (t_->pieces[t].check_from[by][s] & pieces(by, t) & occ)) return true;
    for (int d = 0; d < 8; ++d) {
      const int b = first(d, s, occ);
      if (b < 0) continue;
      const int code = board_[b];
      if (code < 0 || (code & 1) != by || (harmless >> (code >> 1) & 1)) continue;
      if (t_->pieces[code >> 1].ride_check[by] & (1u << ((d + 4) & 7))) return true;
    }
    if (borrowing_ && borrowed_attack(s, by, occ)) return true;
    if (animals_ || path_check_types_) return animal_attack(s, by, occ, harmless);
    return false;
  }

  // Which enemy pieces each type may capture (`captures`, `captured-by`, `immune`).
  void capture_targets(int us, BB* out) const {
    using T = PieceProgram::Targets;
    const int them = us ^ 1;
    const BB opp = by_color_[them];
    const BB royals = this->royals(them);
    BB never{}, only_royal{};
    for (int t = 0; t < p_->ntypes; ++t) {
      const PieceProgram& pp = p_->types[t];
      if (pp.immune || pp.captured_by == T::None)
        never |= pieces(them, t);
      else if (pp.captured_by == T::Royal)
        only_royal |= pieces(them, t);
    }
    for (int t = 0; t < p_->ntypes; ++t) {
      const PieceProgram& pp = p_->types[t];
      BB b = opp & ~never;
      if (!pp.royal) b &= ~only_royal;
      if (pp.captures == T::Royal) b &= royals;
      if (pp.captures == T::NonRoyal) b &= ~royals;
      if (pp.captures == T::None) b = BB{};
      out[t] = b;
    }
  }

  // The basic movement of friendly neighbours of the types it borrows from (RULINGS 4.7).
  void borrowed_targets(int s, int t, int us, const BB& occ, const BB& tg, BB& quiet, BB& caps) const {
    const uint32_t lends = p_->types[t].borrows;
    for (BB nb = t_->pieces[t].lenders[s] & by_color_[us]; nb; clear_lsb(nb)) {
      const int u = board_[lsb(nb)] >> 1;
      if (!(lends >> u & 1)) continue;
      const PieceTables<BB>& lt = t_->pieces[u];
      quiet |= lt.leap_move[us][s] & ~occ;
      caps |= lt.leap_capture[us][s] & tg;
      for (uint8_t dm = lt.ride_move[us] | lt.ride_capture[us]; dm; dm &= dm - 1) {
        int d = __builtin_ctz(dm);
        BB r = ride(d, s, occ);
        if (lt.ride_move[us] & (1u << d)) quiet |= r & ~occ;
        if (lt.ride_capture[us] & (1u << d)) caps |= r & tg;
      }
    }
  }

  // Teleports and region moves (RULINGS 4.6, 4.8).
  [[gnu::noinline]] void special_targets(int s, int t, int us, const BB& occ, const BB& tg, BB& quiet,
                                         BB& caps) const {
    const PieceProgram& pp = p_->types[t];
    const PieceTables<BB>& pt = t_->pieces[t];
    if (pp.borrows) borrowed_targets(s, t, us, occ, tg, quiet, caps);
    if (path_types_ >> t & 1) path_targets(s, t, us, occ, tg, quiet, caps);
    if (pp.teleport_move) quiet |= ~occ & pt.teleport_to[us];
    if (pp.teleport_capture) caps |= tg & pt.teleport_to[us];
    for (const PieceProgram::Line& l : pp.limited[us]) {
      const BB r = ride(l.d, s, occ) & reach(l.d, s, l.range);
      if (l.move) quiet |= r & ~occ;
      if (l.capture) caps |= r & tg;
    }
    if (!pp.own_leaps[us].empty()) {
      // Own pieces, never a royal or an immune one (RULINGS 4.10's wild horse).
      BB own = by_color_[us];
      own &= ~royals(us);
      for (uint32_t m = immune_types_; m; m &= m - 1) own &= ~by_type_[__builtin_ctz(m)];
      caps |= pt.own_capture[us][s] & own;
    }
    BB region = pt.region_move[us][s] & ~occ;
    if (!region) return;
    const int w = p_->width, sx = s % w, sy = s / w;
    for (BB kb = royals(us ^ 1); kb; clear_lsb(kb)) {
      const int k = lsb(kb), kx = k % w, ky = k / w;
      for (BB r = region; r; clear_lsb(r)) {
        const int to = lsb(r), x = to % w, y = to / w;
        if (x >= std::min(sx, kx) && x <= std::max(sx, kx) && y >= std::min(sy, ky) && y <= std::max(sy, ky))
          quiet |= bit(to);
      }
    }
  }

  // `region-reached`: every piece of colour c of the flag types (at least one) stands in
  // the region (midline invasion: every royal piece on the opponent's half), or with
  // `any` one of them does (breakthrough).
  bool invaded(int c) const {
    BB r{};
    for (uint32_t m = p_->flag_types; m; m &= m - 1) r |= pieces(c, __builtin_ctz(m));
    if (p_->flag_safe) [[unlikely]]
      return flag_safe_reached(c, r);
    if (p_->flag_any) return static_cast<bool>(r & t_->flag_zone[c]);
    return r && !(r & ~t_->flag_zone[c]);
  }
  // `unless-answered`: the first player reached the region; whether the second, to move,
  // has a legal action of a flag piece into it (a draw then follows).
  bool can_answer() {
    if (in_check()) return false;
    std::vector<Move> all;
    answering_ = true;
    generate_impl<false, true>(&all);
    answering_ = false;
    for (Move m : all) {
      const uint32_t k = kind_of(m);
      if (k == kPlace || k == kCastleK || k == kCastleQ) continue;
      if ((p_->flag_types >> (board_[from_of(m)] >> 1) & 1) && test(t_->flag_zone[side_], to_of(m)))
        return true;
    }
    return false;
  }
  // The game ended by `region-reached` before the side to move acts: it reached the region
  // itself on an earlier turn (`unless-answered`: the answer, or a position given so), or
  // the opponent did and no answer is possible. Sets `draw` when both reached it.
  bool region_ended(bool& draw) {
    draw = false;
    if (p_->flag_safe) [[unlikely]]
      return flag_safe_ended(draw);
    if (p_->flag_held) return invaded(side_);
    if (p_->flag_answer && invaded(side_)) {
      draw = side_ == 0 && invaded(1);
      return true;
    }
    if (!invaded(side_ ^ 1)) return false;
    return !(p_->flag_answer && side_ == 1 && can_answer());
  }

  // King distance between two squares.
  int dist(int a, int b) const {
    const int w = p_->width;
    return std::max(std::abs(a % w - b % w), std::abs(a / w - b / w));
  }
  // The squares along d from s (exclusive), at most `range` of them (0: to the edge).
  BB reach(int d, int s, int range) const {
    const BB r = t_->ray[d][s];
    if (range <= 0) return r;
    const int w = p_->width, x = s % w + kDirDx[d] * range, y = s / w + kDirDy[d] * range;
    if (x < 0 || y < 0 || x >= w || y >= p_->height) return r;
    return r & ~t_->ray[d][y * w + x];
  }
  // Enemy pieces a piece starting on s may not capture: those protected from afar
  // (`captured-by ... within`).
  BB far_protected(int s, int them) const {
    BB out{};
    for (uint32_t m = within_types_; m; m &= m - 1) {
      const int t = __builtin_ctz(m);
      out |= pieces(them, t) & ~t_->pieces[t].near[s];
    }
    return out;
  }
  // The pieces a rampage of type t and colour c from s may not remove.
  BB rampage_blockers(int s, int t, int c) const {
    const PieceProgram& pp = p_->types[t];
    BB bl{};
    if (pp.rampage.blocked_own_royal) bl |= royals(c);
    uint32_t types = pp.rampage.blocked_types | (pp.rampage.blocked_immune ? immune_types_ : 0u);
    for (; types; types &= types - 1) bl |= by_type_[__builtin_ctz(types)];
    if (pp.rampage.self_beyond >= 0) bl |= pieces(c ^ 1, t) & ~t_->pieces[t].rampage_near[s];
    return bl;
  }
  // The path of a rampage from s along d, when the rampage is possible: a piece within reach
  // and no blocker. Empty otherwise.
  BB rampage_path(int s, int t, int c, int d, const BB& occ) const {
    const BB path = reach(d, s, p_->types[t].rampage.reach);
    if (!(path & occ) || (path & occ & rampage_blockers(s, t, c))) return BB{};
    return path;
  }
  // The destinations of the paths of a piece of type t on s (other riders, hoppers, lame
  // leaps): a rider's squares up to and including the first piece; a cannon's beyond its
  // screen, up to and including the next piece; a grasshopper's one square just beyond
  // the first piece; a lame leap's target when the squares it passes are empty.
  [[gnu::noinline]] void path_targets(int s, int t, int us, const BB& occ, const BB& tg, BB& quiet,
                                      BB& caps) const {
    const PieceTables<BB>& pt = t_->pieces[t];
    const BB no_screen = types_bb(p_->types[t].screen_not);  // `hops-not-over`
    for (const auto& w : pt.walks[us][s]) {
      const int16_t* q = pt.walk_sq.data() + w.first;
      const int16_t* const end = q + w.len;
      if (w.hop) {
        while (q != end && !test(occ, *q)) ++q;  // to the screen
        if (q == end || test(no_screen, *q) || ++q == end) continue;
        if (w.hop == 'g') {
          if (!test(occ, *q)) {
            if (w.move) bb::set(quiet, *q);
          } else if (w.capture && test(tg, *q)) {
            bb::set(caps, *q);
          }
          continue;
        }
      } else if (w.block & occ) {
        continue;  // a lame leap's leg is blocked
      }
      for (; q != end; ++q) {
        if (!test(occ, *q)) {
          if (w.move) bb::set(quiet, *q);
          continue;
        }
        if (w.capture && test(tg, *q)) bb::set(caps, *q);
        break;
      }
    }
  }
  // Whether a piece of `by` captures on s along a path (types in `skip` aside): walks each
  // candidate (walk_from) along its paths through s, counting the pieces before s.
  bool path_attack(int s, int by, const BB& occ, uint32_t skip) const {
    for (uint32_t m = path_check_types_ & ~skip; m; m &= m - 1) {
      const int t = __builtin_ctz(m);
      const PieceTables<BB>& pt = t_->pieces[t];
      const BB no_screen = types_bb(p_->types[t].screen_not);
      for (BB b = pieces(by, t) & occ & pt.walk_from[by][s]; b; clear_lsb(b)) {
        for (const auto& w : pt.walks[by][lsb(b)]) {
          if (!w.capture) continue;
          const int16_t* q = pt.walk_sq.data() + w.first;
          const int16_t* const end = q + w.len;
          int passed = 0;  // pieces before s
          bool last = false;
          int screen = -1;
          for (; q != end && *q != s && passed < 2; ++q) {
            last = test(occ, *q);
            if (last && !passed) screen = *q;
            passed += last;
          }
          if (q == end || *q != s) continue;
          const bool hit = w.hop == 'p'   ? passed == 1 && !test(no_screen, screen)
                           : w.hop == 'g' ? passed == 1 && last && !test(no_screen, screen)
                                          : passed == 0 && !(w.block & occ);
          if (hit) return true;
        }
      }
    }
    return false;
  }
  // The squares whose occupancy decides whether an enemy path reaches a royal piece of `us`
  // (a hopper's squares before the royal piece, screens included, a lame leap's leg) or
  // whether the royal pieces face each other (`royals-not-facing`: the squares between).
  // An action leaving or entering one is tested in full; every other action of a piece
  // that is not pinned cannot change those attacks (Stockfish's blockers, for paths).
  [[gnu::noinline]] BB path_exposure(int us, const BB& occ) const {
    BB e{};
    const int them = us ^ 1;
    for (BB r = royals(us); r; clear_lsb(r)) {
      const int kq = lsb(r);
      for (uint32_t m = path_check_types_; m; m &= m - 1) {
        const int t = __builtin_ctz(m);
        const PieceTables<BB>& pt = t_->pieces[t];
        for (BB b = pieces(them, t) & occ & pt.walk_from[them][kq]; b; clear_lsb(b))
          for (const auto& w : pt.walks[them][lsb(b)]) {
            if (!w.capture) continue;
            const int16_t* q = pt.walk_sq.data() + w.first;
            const int16_t* const end = q + w.len;
            BB seg = w.block;
            for (; q != end && *q != kq; ++q) bb::set(seg, *q);
            if (q != end) e |= seg;
          }
      }
      if (p_->royals_not_facing)
        for (BB b = royals(them); b; clear_lsb(b)) {
          const int d = t_->dir[kq][lsb(b)];
          if (d >= 0 && d % 2 == 0) e |= t_->between(kq, lsb(b));
        }
    }
    return e;
  }
  // Attacks by strikes, limited capturing lines and rampages (RULINGS 4.10), and by paths.
  [[gnu::noinline]] bool animal_attack(int s, int by, const BB& occ, uint32_t skip = 0) const {
    if (path_check_types_ && path_attack(s, by, occ, skip)) return true;
    for (uint32_t m = line_check_types_; m; m &= m - 1) {
      const int t = __builtin_ctz(m);
      const PieceProgram& pp = p_->types[t];
      for (BB b = pieces(by, t) & occ; b; clear_lsb(b)) {
        const int q = lsb(b), d = t_->dir[q][s];
        if (d < 0 || (t_->between(q, s) & occ)) continue;
        for (const auto* lines : {&pp.strike.lines[by], &pp.limited[by]})
          for (const PieceProgram::Line& l : *lines)
            if (l.capture && l.d == d && (l.range == 0 || dist(q, s) <= l.range)) return true;
      }
    }
    for (uint32_t m = whirl_types_; m; m &= m - 1) {
      const int t = __builtin_ctz(m);
      const PieceProgram& pp = p_->types[t];
      for (BB b = pieces(by, t) & occ & t_->pieces[t].around[s]; b; clear_lsb(b)) {
        const int q = lsb(b);
        if (pp.around.not_beside_own_royal && (t_->adjacent[q] & royals(by) & occ)) continue;
        return true;
      }
    }
    for (uint32_t m = rampage_types_; m; m &= m - 1) {
      const int t = __builtin_ctz(m);
      for (BB b = pieces(by, t) & occ; b; clear_lsb(b)) {
        const int q = lsb(b), d = t_->dir[q][s];
        if (d < 0 || !(p_->types[t].rampage.dirs[by] >> d & 1)) continue;
        // A king standing on s is a piece in reach: a castling king's path counts as it.
        if (test(rampage_path(q, t, by, d, occ | bit(s)), s)) return true;
      }
    }
    return false;
  }
  // Strikes and rampages of the piece of type t on s (they need the full legality test).
  int actions_in_place(int s, int t, int us, const BB& occ, const BB& tg, Move* out) const {
    const PieceProgram& pp = p_->types[t];
    int n = 0;
    for (const PieceProgram::Line& l : pp.strike.lines[us]) {
      const int b = first(l.d, s, occ);
      if (b >= 0 && test(tg, b) && (l.range == 0 || dist(s, b) <= l.range))
        out[n++] = make_move(s, b, kNormal, kSubStrike);
    }
    if (pp.whirlwind() && !(pp.around.not_beside_own_royal && (t_->adjacent[s] & royals(us)))) {
      const BB v = whirl_victims(s);
      if (popcount(v) >= pp.around.at_least) out[n++] = make_move(s, s, kNormal, kSubWhirl);
    }
    if (pp.rampage.reach > 0)
      for (uint8_t dm = pp.rampage.dirs[us]; dm; dm &= dm - 1) {
        const int d = __builtin_ctz(dm);
        const BB path = rampage_path(s, t, us, d, occ);
        if (!path) continue;
        out[n++] = make_move(s, (kDirUp >> d & 1) ? msb(path) : lsb(path), kNormal, kSubRampage);
      }
    return n;
  }
// clang-format on
