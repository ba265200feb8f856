// The bitboard tables (BoardTables<BB>), rank sets, the dead-position rule's gate.
//
// A part of the body of class Compiler (compile.cpp includes it inside the class, in
// this place): member functions moved out of compile.cpp unchanged. Not a standalone
// header; include it nowhere else. clang-format would unindent it: it is formatted as
// part of the class.
// clang-format off

  // The per-square tables on bitboard type BB, from the geometry and the pieces' leaps.
  template <class BB>
  std::shared_ptr<const BoardTables<BB>> tables(const Program& p) const {
    using bb::set;
    auto tb = std::make_shared<BoardTables<BB>>();
    BoardTables<BB>& g = *tb;
    for (int s = 0; s < p.squares; ++s) set(g.board_mask, s);
    for (auto& row : g.dir) row.fill(-1);
    for (int y = 0; y < p.height; ++y)
      for (int x = 0; x < p.width; ++x)
        for (int d = 0; d < 8; ++d) {
          BB r{};
          for (int cx = x + kDirDx[d], cy = y + kDirDy[d]; on(p, cx, cy); cx += kDirDx[d], cy += kDirDy[d]) {
            set(r, sq(p, cx, cy));
            g.dir[sq(p, x, y)][sq(p, cx, cy)] = static_cast<int8_t>(d);
          }
          g.ray[d][sq(p, x, y)] = r;
          if (on(p, x + kDirDx[d], y + kDirDy[d]))
            set(g.adjacent[sq(p, x, y)], sq(p, x + kDirDx[d], y + kDirDy[d]));
        }
    auto zone = [&](RankSet ranks) {
      BB z{};
      for (int y = 0; y < p.height; ++y)
        if (ranks >> y & 1)
          for (int x = 0; x < p.width; ++x) set(z, sq(p, x, y));
      return z;
    };
    for (int c = 0; c < 2; ++c) g.place_zone[c] = zone(p.place_zone[c]);
    {
      // Each side's half: the h/2 ranks nearest to it (a middle rank of an odd board is neither's).
      const RankSet low = (RankSet(1) << (p.height / 2)) - 1;
      g.enemy_half[0] = zone(low << (p.height - p.height / 2));
      g.enemy_half[1] = zone(low);
    }
    if (p.flag_region >= 0)
      for (int c = 0; c < 2; ++c)
        for (int s = 0; s < p.squares; ++s)
          if (p.regions[p.flag_region][c].test(static_cast<size_t>(s))) set(g.flag_zone[c], s);
    if (p.flips.opening_region >= 0)  // `encloses opening REGION` (gen_flip.hpp)
      for (int c = 0; c < 2; ++c)
        for (int s = 0; s < p.squares; ++s)
          if (p.regions[p.flips.opening_region][c].test(static_cast<size_t>(s))) set(g.opening[c], s);
    g.pieces.resize(p.types.size());
    for (size_t t = 0; t < p.types.size(); ++t) {
      const PieceProgram& pp = p.types[t];
      PieceTables<BB>& pt = g.pieces[t];
      pt.ride_move = pp.ride_move;
      pt.ride_capture = pp.ride_capture;
      pt.special = pp.special();
      if (pp.gives_check) pt.ride_check = pp.ride_capture;
      for (int c = 0; c < 2; ++c) {
        pt.promote_zone[c] = zone(pp.promote_zone[c]);
        if (pp.promote_region >= 0)
          for (int s = 0; s < p.squares; ++s)
            if (p.regions[pp.promote_region][c].test(static_cast<size_t>(s))) set(pt.promote_zone[c], s);
        if (pp.promote_within >= 0) {  // gen_pawns: `promotion-squares REGION`
          BB keep{};
          for (int s = 0; s < p.squares; ++s)
            if (p.regions[pp.promote_within][c].test(static_cast<size_t>(s))) set(keep, s);
          pt.promote_zone[c] = pt.promote_zone[c] & keep;
        }
        pt.forbidden_zone[c] = zone(pp.forbidden_zone[c]);
        for (const PieceProgram::Leap& l : pp.leaps[c]) {
          const int ax = l.dx < 0 ? -l.dx : l.dx, ay = l.dy < 0 ? -l.dy : l.dy;
          if ((ax == 0 || ay == 0 || ax == ay) && (ax > 1 || ay > 1)) pt.line_jumps = true;
          for (int y = 0; y < p.height; ++y)
            for (int x = 0; x < p.width; ++x) {
              if (!on(p, x + l.dx, y + l.dy)) continue;
              int s = sq(p, x, y), to = sq(p, x + l.dx, y + l.dy);
              if (!in_region(p, l.from_region, c, s) || !in_region(p, pp.confine, c, to) ||
                  !in_region(p, l.to_region, c, to))
                continue;
              if (l.move) set(pt.leap_move[c][s], to);
              if (l.capture) {
                set(pt.leap_capture[c][s], to);
                set(pt.leap_capture_from[c][to], s);
                if (pp.gives_check) set(pt.check_from[c][to], s);
              }
              if (l.en_passant && (pp.ep_zone[c] >> (y + l.dy) & 1)) set(pt.ep_capture[c][s], to);
            }
        }
        for (const PieceProgram::Path& w : pp.paths[c])
          for (int y = 0; y < p.height; ++y)
            for (int x = 0; x < p.width; ++x) {
              const int s = sq(p, x, y);
              if (!in_region(p, w.from_region, c, s)) continue;
              // `confined`: a single (lame) leap ending outside the region is no move.
              if (pp.confine >= 0 && on(p, x + w.dx, y + w.dy) &&
                  !in_region(p, pp.confine, c, sq(p, x + w.dx, y + w.dy)))
                continue;
              typename PieceTables<BB>::Walk wk{
                  static_cast<uint32_t>(pt.walk_sq.size()), 0, BB{}, w.move, w.capture, w.hop};
              for (int k = 1, cx = x + w.dx, cy = y + w.dy; on(p, cx, cy) && (w.range == 0 || k <= w.range);
                   ++k, cx += w.dx, cy += w.dy) {
                if (!in_region(p, w.to_region, c, sq(p, cx, cy))) break;  // `region-betza ... to`
                pt.walk_sq.push_back(static_cast<int16_t>(sq(p, cx, cy)));
                // A hopper never lands on its walk's first square (the screen is before it).
                if (w.capture && (k > 1 || !w.hop)) set(pt.walk_from[c][sq(p, cx, cy)], s);
                ++wk.len;
              }
              if (!wk.len) continue;
              if (w.lame) {
                const int ax = std::abs(w.dx), ay = std::abs(w.dy), n = std::max(ax, ay);
                if (ax == 0 || ay == 0 || ax == ay) {
                  for (int k = 1; k < n; ++k) set(wk.block, sq(p, x + w.dx / n * k, y + w.dy / n * k));
                } else {
                  // N, Z (janggi's elephant): the orthogonal first step along the longer side,
                  // then diagonal steps outward (a (1,2) leap passes one square, a (2,3) two).
                  const int ux = ax > ay ? w.dx / ax : 0, uy = ax > ay ? 0 : w.dy / ay;
                  const int sx = w.dx / ax, sy = w.dy / ay;
                  for (int k = 0; k < std::min(ax, ay); ++k)
                    set(wk.block, sq(p, x + ux + k * sx, y + uy + k * sy));
                }
              }
              pt.walks[c][s].push_back(wk);
            }
        for (const PieceProgram::Leap& l : pp.region_leaps[c])
          for (int y = 0; y < p.height; ++y)
            for (int x = 0; x < p.width; ++x)
              if (on(p, x + l.dx, y + l.dy)) set(pt.region_move[c][sq(p, x, y)], sq(p, x + l.dx, y + l.dy));
        // gen_promote: where the piece has no move on the empty board (an optional
        // promotion is mandatory there). Walks, region leaps and specials count as moves.
        if (pp.promote_optional)
          for (int s = 0; s < p.squares; ++s) {
            bool moves = !pt.walks[c][s].empty() || !pp.region_leaps[c].empty() || pp.special() ||
                         static_cast<bool>(pt.leap_move[c][s]);
            for (int d = 0; d < 8 && !moves; ++d)
              moves = (pp.ride_move[c] >> d & 1) && static_cast<bool>(g.ray[d][s]);
            if (!moves) set(pt.immobile[c], s);
          }
        pt.teleport_to[c] = g.board_mask & ~zone(pp.teleport_except[c]);
        for (const PieceProgram::Leap& l : pp.own_leaps[c])
          for (int y = 0; y < p.height; ++y)
            for (int x = 0; x < p.width; ++x)
              if (on(p, x + l.dx, y + l.dy)) set(pt.own_capture[c][sq(p, x, y)], sq(p, x + l.dx, y + l.dy));
        if (c == 0)
          for (int y = 0; y < p.height; ++y)
            for (int x = 0; x < p.width; ++x)
              for (int d = 0; d < 8; ++d)
                if ((pp.borrow_dirs >> d & 1) && on(p, x + kDirDx[d], y + kDirDy[d]))
                  set(pt.lenders[sq(p, x, y)], sq(p, x + kDirDx[d], y + kDirDy[d]));
        if (c == 0 && (pp.captured_within > 0 || pp.rampage.self_beyond >= 0 || pp.around.reach > 0))
          for (int s = 0; s < p.squares; ++s)
            for (int s2 = 0; s2 < p.squares; ++s2) {
              const int dist =
                  std::max(std::abs(s % p.width - s2 % p.width), std::abs(s / p.width - s2 / p.width));
              if (dist <= pp.captured_within) set(pt.near[s], s2);
              if (dist <= pp.rampage.self_beyond) set(pt.rampage_near[s], s2);
              if (dist > 0 && dist <= pp.around.reach) set(pt.around[s], s2);
            }
        for (const PieceProgram::LameLeap& l : pp.lame[c]) {
          int steps = std::max(std::abs(l.dx), std::abs(l.dy));
          int ux = l.dx / steps, uy = l.dy / steps;
          for (int y = 0; y < p.height; ++y)
            for (int x = 0; x < p.width; ++x) {
              if (!(l.from >> y & 1) || !on(p, x + l.dx, y + l.dy)) continue;
              if (!in_region(p, pp.confine, c, sq(p, x + l.dx, y + l.dy))) continue;  // `confined`
              BB path{};
              if (!l.jumps)
                for (int k = 1; k < steps; ++k) set(path, sq(p, x + ux * k, y + uy * k));
              pt.initial_lame[c][sq(p, x, y)].push_back({sq(p, x + l.dx, y + l.dy), path});
            }
        }
      }
    }
    return tb;
  }

  // The absolute ranks of colour `color`'s relative ranks r.
  RankSet ranks(const Program& p, int color, const Range& r) const {
    RankSet b = 0;
    for (int k = std::max(1, r.lo); k <= r.hi && k <= p.height; ++k)
      b |= RankSet(1) << (color == 0 ? k - 1 : p.height - k);
    return b;
  }

  // Why the dead-position rule (generator.cpp, `insufficient`) is not sound for this
  // program, or "" when it is. The rule: no pieces but one royal a side and at most one
  // knight-mover, or one bishop-mover a side on squares of one colour. It is a theorem for
  // a king that moves as a chess king, on a board of at least 3 x 3, where checkmate is the
  // only loss: a mate needs the lone king's flight squares of the other colour than its
  // square covered, which neither a knight nor a bishop giving the check can do, nor the
  // enemy king (never adjacent), nor an own bishop (on the checked colour). Anything else
  // that can end the game (a royal capture, a region, a stalemate that loses, cards) or a
  // royal piece that moves otherwise (Knightmate's, whose mates with K+B exist) leaves the
  // question open, and nothing is declared.
  std::string dead_position_undecided(const Program& p) const {
    if (m_.unbounded) return "the board is unbounded";
    if (p.width < 3 || p.height < 3) return "the board is smaller than 3 x 3";
    if (m_.deck_loc.src) return "cards decide which piece moves";
    if (!m_.armies.empty()) return "the game has armies";
    if (!p.checkmate_loses || !p.stalemate_draw) return "checkmate is not the only loss";
    if (p.royal_capture) return "capturing a royal piece wins";
    if (p.invasion) return "reaching a region wins";
    if (!m_.royal_safe) return "a royal piece may be left attacked";
    int royals = 0;
    for (size_t k : used_) {
      const PieceDef& def = m_.pieces[k];
      if (!def.royal) continue;
      ++royals;
      if (!plain_piece(def) || !same_movement(def, "K"))
        return std::string("the royal piece `") + def.letter + "` does not move as a chess king";
    }
    if (royals != 1) return "the game has " + std::to_string(royals) + " royal piece types";
    return "";
  }
// clang-format on
