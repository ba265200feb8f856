// Wall squares (`walls`, `petrify`, `walls placed`; walls.hpp).
//
// A part of the body of class Generator (generator_impl.hpp includes it inside the
// class, in this place): member functions moved out of generator.cpp unchanged, so
// the class and its inlining are as they were. Not a standalone header; include it
// nowhere else. clang-format would unindent it: it is formatted as part of the class.
// clang-format off

  // ---- walls (`walls`, `petrify`; walls.hpp) ---------------------------------------------
  // Wall squares stand in walls_, which occupied() includes: they block every move and no
  // piece captures them. With `walls placed RULE` every move has a second part, the wall it
  // places (with_wall: Fairy-Stockfish's `e2e4,e4e5`); generate() reaches generate_walls
  // through generate_ends, so a program without placed walls never runs this code.
  Program::WallRule wall_rule_ = Program::WallRule::None;
  uint32_t petrify_types_ = 0;
  BB wall_zone_[2] = {};  // where each colour may place walls
  BB board_mask_{};       // every square of the board
  BB edge_mask_{};        // the first and last file and rank (`placed edge`)
  std::vector<Move> walls_buf_;

  void load_walls(const FenFields& f, std::string_view text) {
    wall_rule_ = p_->wall_rule;
    petrify_types_ = p_->petrify_types;
    walls_ = board_mask_ = edge_mask_ = BB{};
    for (int y = 1; y <= p_->height; ++y)
      for (int x = 0; x < p_->width; ++x) {
        const int s = (y - 1) * p_->width + x;
        board_mask_ |= bit(s);
        if (x == 0 || y == 1 || x == p_->width - 1 || y == p_->height) edge_mask_ |= bit(s);
        if (f.at(Coord{x, y}) == '*') walls_ |= bit(s);
      }
    for (int c = 0; c < 2; ++c) {
      wall_zone_[c] = board_mask_;
      if (p_->wall_region >= 0) {
        wall_zone_[c] = BB{};
        for (int s = 0; s < p_->squares; ++s)
          if (p_->regions[p_->wall_region][c].test(static_cast<size_t>(s))) wall_zone_[c] |= bit(s);
      }
    }
    if (wall_rule_ == Program::WallRule::Duck && popcount(walls_) > 1)
      throw PositionError("`walls placed duck` moves one wall: the position holds " +
                              std::to_string(popcount(walls_)) + " wall squares",
                          text.find('*'));
  }
  // `petrify`: the capturer on `to` (code) becomes a wall square.
  void petrify(Undo& u, int to, int code) {
    const Zobrist<N>& z = zob<N>();
    remove(to);
    walls_ |= bit(to);
    hash_ ^= z.psq[code & 1][code >> 1][to] ^ z.wall[to];
    u.petrified = true;
  }
  void unpetrify(int to, int code) {
    walls_ &= ~bit(to);
    put(to, code);
  }
  // The move's wall: `duck` first lifts the one wall standing; a wall on the square a double
  // step passed over leaves no en-passant capture (Fairy-Stockfish).
  void place_wall(Undo& u, int q) {
    const Zobrist<N>& z = zob<N>();
    if (wall_rule_ == Program::WallRule::Duck && walls_) {
      u.wall_taken = static_cast<int16_t>(lsb(walls_));
      walls_ = BB{};
      hash_ ^= z.wall[u.wall_taken];
    }
    walls_ |= bit(q);
    hash_ ^= z.wall[q];
    if (ep_ == q) {
      hash_ ^= z.ep[ep_];
      ep_ = ep_victim_ = -1;
    }
  }
  void take_wall(const Undo& u, int q) {
    walls_ &= ~bit(q);
    if (u.wall_taken >= 0) walls_ |= bit(u.wall_taken);
  }
  // The squares where the mover may place the wall after the move m: empty once m is made,
  // in the mover's zone, and as the rule says.
  BB wall_squares(Move m) {
    const int from = from_of(m), to = to_of(m);
    const int moved = board_[from];
    const Light l = light_make(m);
    BB w = board_mask_ & ~occupied() & wall_zone_[side_];
    switch (wall_rule_) {
      case Program::WallRule::Arrow: {  // where the moved piece could move on from its arrival
        const PieceTables<BB>& pt = t_->pieces[moved >> 1];
        BB reach = pt.leap_move[side_][to];
        for (uint8_t dm = pt.ride_move[side_]; dm; dm &= dm - 1)
          reach |= ride(__builtin_ctz(dm), to, occupied());
        w &= reach;
        break;
      }
      case Program::WallRule::Past:
        w &= bit(from);
        break;
      case Program::WallRule::Edge: {  // the edge, or orthogonally beside a wall
        BB near = edge_mask_;
        for (BB b = walls_; b; clear_lsb(b)) {
          const int q = lsb(b), x = q % p_->width, y = q / p_->width;
          if (x > 0) near |= bit(q - 1);
          if (x + 1 < p_->width) near |= bit(q + 1);
          if (y > 0) near |= bit(q - p_->width);
          if (y + 1 < p_->height) near |= bit(q + p_->width);
        }
        w &= near;
        break;
      }
      default:  // duck, static: any empty square of the zone (the duck's own square is occupied)
        break;
    }
    light_unmake(m, l, moved);
    return w;
  }
  // Every legal move with each wall it may place; a move that can place none is no move.
  template <bool Count>
  uint64_t generate_walls(std::vector<Move>* out) {
    walls_buf_.clear();
    const bool any = any_only_;
    any_only_ = false;  // a move without a wall square counts nothing
    generate_moves<false>(&walls_buf_);
    any_only_ = any;
    if (p_->must_capture) ends::keep_captures(walls_buf_, [this](Move m) { return is_capture(m); });
    uint64_t n = 0;
    for (Move m : walls_buf_) {
      const BB w = wall_squares(m);
      if constexpr (Count) {
        n += popcount(w);
      } else {
        for (BB b = w; b; clear_lsb(b)) out->push_back(with_wall(m, lsb(b)));
        n += popcount(w);
      }
    }
    return n;
  }
// clang-format on
