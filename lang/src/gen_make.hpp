// Make and unmake: a step played and taken back, promotion limits, the en-passant field
// as a path, insufficient material.
//
// A part of the body of class Generator (generator_impl.hpp includes it inside the
// class, in this place): member functions moved out of generator.cpp unchanged, so
// the class and its inlining are as they were. Not a standalone header; include it
// nowhere else. clang-format would unindent it: it is formatted as part of the class.
// clang-format off

  // Plays one step. `ends_turn` false: the first step of a turn whose next phase follows
  // (the side does not change; a double step's en passant waits for the end of the turn).
  // A step after such a first one continues the turn: the clock counted the turn already.
  void make(Move m, bool ends_turn = true) {
    const Zobrist<N>& z = zob<N>();
    const bool continues = !stack_.empty() && !stack_.back().ends_turn;
    // Built in its slot (a prvalue: no temporary): nothing below pushes or reads the stack.
    Undo& u = *::new (&stack_.push_slot()) Undo{m,
           static_cast<int8_t>(kind_of(m) == kPlace ? -1 : board_[from_of(m)]),
           -1,
           static_cast<int16_t>(ep_),
           static_cast<int16_t>(ep_victim_),
           castling_,
           halfmove_,
           fullmove_,
           hash_,
           ends_turn,
           static_cast<int16_t>(pending_passed_),
           static_cast<int16_t>(pending_victim_)};
    const int us = side_, from = from_of(m), to = to_of(m);
    const uint32_t k = kind_of(m);
    if (ep_ >= 0) hash_ ^= z.ep[ep_];
    ep_ = ep_victim_ = -1;
    hash_ ^= z.castle[castling_];
    if (!continues && halfmove_ < INT32_MAX) ++halfmove_;  // saturates: the text holds int32 counters
    if (k == kNull) {
      // A turn without a move (the card layer's pass or redraw).
    } else if (k == kPlace) {
      const int placed = type_of(m);
      const int t = from ? from - 1 : placed;  // a promoted drop names the hand's type (shogi2)
      if (!flip_supply_) {                     // `supply unlimited`: no reserve
        hash_ ^= reserve_key(z, us, t, reserve_[us][t]);
        --reserve_[us][t];
        hash_ ^= reserve_key(z, us, t, reserve_[us][t]);
      }
      put(to, placed * 2 + us);
      hash_ ^= z.psq[us][placed][to];
      if (from) [[unlikely]] {
        promoted_ |= bit(to);
        hash_ ^= z.promoted[to];
      }
      if (p_->castle_by_drop) [[unlikely]]
        castle_rights_by_drop(us, placed, to);
      halfmove_ = 0;
      if (convert_types_ >> t & 1) [[unlikely]]
        flip_make(t, to);
    } else if (k == kCastleK || k == kCastleQ) {
      int kto, rto;
      castle_targets(k, us, kto, rto);
      int kc = board_[from], rc = board_[to];
      shift_pair(from, to, kto, rto);
      hash_ ^= z.psq[us][kc >> 1][from] ^ z.psq[us][kc >> 1][kto] ^ z.psq[us][rc >> 1][to] ^
               z.psq[us][rc >> 1][rto];
      castling_ &= static_cast<uint8_t>(~castle_clear_[from] & ~castle_clear_[to]);
    } else if (sub_of(m)) {
      // A rampage or a strike (RULINGS 4.10): removals, then a rampage's run.
      u.nremoved = static_cast<uint8_t>(remove_effect(m, [&](int q, int code) {
        removed_.push_back({static_cast<int16_t>(q), static_cast<int8_t>(code)});
        hash_ ^= z.psq[code & 1][code >> 1][q];
        castling_ &= static_cast<uint8_t>(~castle_clear_[q]);
      }));
      halfmove_ = 0;
      if (sub_of(m) == kSubRampage) {
        const int code = board_[from];
        remove(from);
        put(to, code);
        hash_ ^= z.psq[us][code >> 1][from] ^ z.psq[us][code >> 1][to];
        castling_ &= static_cast<uint8_t>(~castle_clear_[from]);
      }
    } else {
      int victim = k == kEnPassant ? u.ep_victim : to;
      if (board_[victim] >= 0) {
        u.captured = board_[victim];
        hash_ ^= z.psq[u.captured & 1][u.captured >> 1][victim];
        remove(victim);
        halfmove_ = 0;
      }
      int code = board_[from];
      int t = code >> 1;
      // A promotion resets it (FSF), unless it can be undone: a type that `demotes` (kyotoshogi's
      // turning pieces; FSF's pieceDemotion).
      // A piece with `resets-clock irreversible` only when its leaps do not lead back.
      if ((p_->types[t].resets_clock &&
           (!p_->types[t].clock_irreversible || !bb::test(t_->pieces[t].leap_move[us][to], from))) ||
          (k == kPromote && !p_->types[t].demotes && !p_->types[type_of(m)].demotes))
        halfmove_ = 0;
      remove(from);
      int nt = k == kPromote ? type_of(m) : t;
      put(to, nt * 2 + us);
      hash_ ^= z.psq[us][t][from] ^ z.psq[us][nt][to];
      if (u.captured >= 0 && (petrify_types_ >> t & 1)) [[unlikely]]
        petrify(u, to, nt * 2 + us);
      if (hand_) [[unlikely]]
        hand_make(u, from, to, victim, k == kPromote);
      if (convert_types_ >> nt & 1) [[unlikely]]
        flip_make(nt, to);
      castling_ &= static_cast<uint8_t>(~castle_clear_[from] & ~castle_clear_[to]);
      if (u.captured >= 0 && (blast_types_ >> t & 1)) [[unlikely]]
        u.nremoved = static_cast<uint8_t>(make_explosion(t, to));
      if (k == kDouble) {
        const auto& lames = t_->pieces[t].initial_lame[us][from];
        for (const auto& l : lames)
          if (l.to == to) {
            // En passant onto the square(s) passed over: the last one before the target.
            BB path = l.path;
            if (path) {
              int passed = us == 0 ? msb(path) : lsb(path);
              if (p_->types[t].ep_marks_path && ends_turn) {
                mark_ep_path(passed, to);  // gen_pawns: the field holds it, capture or not
              } else if (ends_turn) {
                set_ep_if_capturable(passed, to);
              } else {
                pending_passed_ = passed;
                pending_victim_ = to;
              }
            }
            break;
          }
      }
    }
    hash_ ^= z.castle[castling_];
    if (continues && pending_passed_ >= 0) {
      // The first step's double step: en passant stays available unless this step took
      // the pawn or stands on the square passed over.
      const int passed = pending_passed_, victim = pending_victim_;
      pending_passed_ = pending_victim_ = -1;
      if (board_[passed] < 0 && board_[victim] >= 0 && (board_[victim] & 1) == us)
        set_ep_if_capturable(passed, victim);
    }
    if (has_wall(m)) [[unlikely]]
      place_wall(u, wall_of(m));
    u.checks_left = checks_left_;
    if (!ends_turn) return;
    if (us == 1 && fullmove_ < INT32_MAX) ++fullmove_;
    side_ ^= 1;
    hash_ ^= z.side;
    if (counting_checks_ && checks_left_[us] > 0 && royals_attacked(side_)) [[unlikely]] {
      hash_ ^= ends::check_key(us, checks_left_[us]) ^ ends::check_key(us, checks_left_[us] - 1);
      --checks_left_[us];
    }
    history_.push_back(hash_);
  }

  // ---- gen_pawns: `promotion-limit N`: a promotion to a type only while the side holds
  // fewer than N of it on the board (Fairy-Stockfish's promotionLimit).
  bool promotable(int us, int pt) const {
    const int lim = p_->types[pt].promotion_limit;
    return !lim || popcount(pieces(us, pt)) < lim;
  }

  // ---- gen_pawns: the en-passant field as a path (`en-passant-field path`) -------------
  // Fairy-Stockfish's custom pawns: after the double step the field holds the square passed
  // and the arrival (`f3g4`, in square order), whether or not a capture is possible; an
  // en-passant capture lands on the square passed and takes the piece on the arrival.
  void mark_ep_path(int passed, int arrival) {
    ep_ = passed;
    ep_victim_ = arrival;
    hash_ ^= zob<N>().ep[ep_];
  }
  bool ep_is_path() const { return ep_victim_ >= 0 && p_->types[board_[ep_victim_] >> 1].ep_marks_path; }
  void write_ep(FenFields& f) const {
    if (!ep_is_path()) {
      f.ep = coord(ep_);
      return;
    }
    f.ep = coord(std::min(ep_, ep_victim_));
    f.ep_more = {coord(std::max(ep_, ep_victim_))};
  }
  // Reads the list form: exactly an empty square passed and the arrival of a double step of
  // the side that just moved by a piece whose field is a path, as make() leaves them.
  void read_ep_path(const FenFields& f, std::string_view text) {
    const size_t col = ep_column(text);
    if (f.ep_more.size() != 1)
      throw PositionError("an en-passant field lists one double step: the square passed and the arrival",
                          col);
    int a = (f.ep->y - 1) * p_->width + f.ep->x, b = (f.ep_more[0].y - 1) * p_->width + f.ep_more[0].x;
    if (board_[a] >= 0) std::swap(a, b);
    const int mover = side_ ^ 1;
    bool ok = board_[a] < 0 && board_[b] >= 0 && (board_[b] & 1) == mover &&
              p_->types[board_[b] >> 1].ep_marks_path;
    if (ok) {
      const std::vector<int> victims = ep_victims_from_text(a);
      ok = std::find(victims.begin(), victims.end(), b) != victims.end();
    }
    if (!ok)
      throw PositionError(
          "the en-passant field's squares are no double step of a piece with `en-passant-field path` "
          "(the square passed, empty, and the arrival)",
          col);
    ep_ = a;  // the hash is computed afterwards (full_hash)
    ep_victim_ = b;
  }
  static size_t ep_column(std::string_view text) {
    size_t col = 0;
    for (int spaces = 0; col < text.size() && spaces < 3; ++col)
      if (text[col] == ' ') ++spaces;
    return col;
  }

  // After a double step by the side that just moved, keeps the en-passant square only when
  // the side now to move (side_ not yet flipped: the capturer is side_ ^ 1) can legally
  // capture there.
  // Hash: update the position's key (perft_plain keeps none).
  template <bool Hash = true>
  void set_ep_if_capturable(int passed, int victim) {
    const int capturer = side_ ^ 1;
    bool any = false;
    // Only the capturer's pieces on squares some type takes en passant from (ep_from_).
    for (BB b = ep_from_[capturer][passed] & by_color_[capturer]; b && !any; clear_lsb(b)) {
      const int s = lsb(b);
      if (!test(t_->pieces[board_[s] >> 1].ep_capture[capturer][s], passed)) continue;
      // Test legality from the capturer's side.
      side_ ^= 1;
      ep_ = passed;
      ep_victim_ = victim;
      any = safe_after(make_move(s, passed, kEnPassant));
      side_ ^= 1;
    }
    if (any) {
      ep_ = passed;
      ep_victim_ = victim;
      if constexpr (Hash) hash_ ^= zob<N>().ep[ep_];
    } else {
      ep_ = ep_victim_ = -1;
    }
  }

  void unmake() {
    // Read in place: nothing below pushes, so the popped frame stays where it is.
    const Undo& u = stack_.back();
    stack_.pop_back();
    if (u.ends_turn) {
      history_.pop_back();
      side_ ^= 1;
    }
    const int us = side_;
    const Move m = u.move;
    const int from = from_of(m), to = to_of(m);
    const uint32_t k = kind_of(m);
    if (has_wall(m)) [[unlikely]]
      take_wall(u, wall_of(m));
    if (convert_types_) [[unlikely]]
      flip_unmake(m);
    if (k == kNull) {
    } else if (k == kPlace) {
      remove(to);
      if (from) [[unlikely]]
        promoted_ &= ~bit(to);
      if (!flip_supply_) ++reserve_[us][from ? from - 1 : type_of(m)];
    } else if (k == kCastleK || k == kCastleQ) {
      int kto, rto;
      castle_targets(k, us, kto, rto);
      shift_pair(kto, rto, from, to);
    } else if (sub_of(m)) {
      if (sub_of(m) == kSubRampage) {
        remove(to);
        put(from, u.moved);
      }
      for (int i = 0; i < u.nremoved; ++i) {
        put(removed_.back().first, removed_.back().second);
        removed_.pop_back();
      }
    } else {
      if (u.nremoved) [[unlikely]]
        restore_removed(u.nremoved);  // an explosion's pieces, the capturer first
      if (hand_) [[unlikely]]
        hand_unmake(u, from, to, k);
      if (u.petrified) [[unlikely]]
        unpetrify(to, (k == kPromote ? type_of(m) : u.moved >> 1) * 2 + us);
      remove(to);
      put(from, u.moved);
      if (u.captured >= 0) put(k == kEnPassant ? u.ep_victim : to, u.captured);
    }
    ep_ = u.ep;
    ep_victim_ = u.ep_victim;
    castling_ = u.castling;
    halfmove_ = u.halfmove;
    fullmove_ = u.fullmove;
    hash_ = u.hash;
    pending_passed_ = u.pending_passed;
    pending_victim_ = u.pending_victim;
    checks_left_ = u.checks_left;
  }

  bool insufficient() const {
    if (p_->insufficient_needs_empty_reserves)
      for (int c = 0; c < 2; ++c)
        for (int t = 0; t < p_->ntypes; ++t)
          if (reserve_[c][t]) return false;
    // Two royal pieces and at most two minor ones: a fuller board is no draw (the problem
    // solver asks at every node), without the walk over its squares.
    if (popcount(by_color_[0] | by_color_[1]) > 4) return false;
    int minors = 0, bishops[2] = {0, 0}, knights = 0, royals[2] = {0, 0};
    int bishop_colour[2] = {-1, -1};
    for (int s = 0; s < p_->squares; ++s) {
      int code = board_[s];
      if (code < 0) continue;
      const PieceProgram& pp = p_->types[code >> 1];
      if (pp.royal) {
        ++royals[code & 1];  // the rule is proved for one royal piece a side (compile.cpp)
        continue;
      }
      if (pp.minor_bishop) {
        ++minors;
        ++bishops[code & 1];
        bishop_colour[code & 1] = (s % p_->width + s / p_->width) & 1;
      } else if (pp.minor_knight) {
        ++minors;
        ++knights;
      } else {
        return false;
      }
    }
    if (royals[0] != 1 || royals[1] != 1) return false;
    if (minors <= 1) return true;
    return minors == 2 && knights == 0 && bishops[0] == 1 && bishops[1] == 1 &&
           bishop_colour[0] == bishop_colour[1];
  }
// clang-format on
