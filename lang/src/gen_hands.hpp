// Flipping pieces and passes (gen_flip.hpp), hands and drops (drops.hpp), the shogi family
// (shogi2.hpp) and `flag-safe`.
//
// A part of the body of class Generator (generator_impl.hpp includes it inside the
// class, in this place): member functions moved out of generator.cpp unchanged, so
// the class and its inlining are as they were. Not a standalone header; include it
// nowhere else. clang-format would unindent it: it is formatted as part of the class.
// clang-format off

  // ---- flipping pieces and passes (`converts`, `pass`, `board-full`; gen_flip.hpp) -------
  // The piece of type t the side to move just put on `to` converts the enemy pieces of its
  // pattern; their squares go on flipped_ for unmake.
  [[gnu::noinline]] void flip_make(int t, int to) {
    const Zobrist<N>& z = zob<N>();
    const int us = side_, them = us ^ 1;
    const BB conv = flip::converted(*t_, p_->types[t].convert, to, by_color_[us], by_color_[them]);
    for (BB b = conv; b; clear_lsb(b)) {
      const int q = lsb(b), code = board_[q];
      remove(q);
      put(q, code ^ 1);
      hash_ ^= z.psq[them][code >> 1][q] ^ z.psq[us][code >> 1][q];
    }
    flipped_.push_back(conv);
  }
  // Gives the pieces converted by step m, being undone, back (its piece stands on its
  // destination); the hash comes back from the undo record.
  [[gnu::noinline]] void flip_unmake(Move m) {
    const uint32_t k = kind_of(m);
    if (k == kNull || k == kCastleK || k == kCastleQ || sub_of(m)) return;
    if (!(convert_types_ >> (board_[to_of(m)] >> 1) & 1)) return;
    for (BB b = flipped_.back(); b; clear_lsb(b)) {
      const int q = lsb(b), code = board_[q];
      remove(q);
      put(q, code ^ 1);
    }
    flipped_.pop_back();
  }
  // The end by a full board or by passes in a row (the steps on the stack: a text starts
  // with none, as in Fairy-Stockfish).
  ends::Verdict flip_verdict() const {
    int passes = 0;
    for (auto it = stack_.rbegin(); it != stack_.rend() && kind_of(it->move) == kNull; ++it) ++passes;
    const bool full = !(t_->board_mask & ~occupied());
    return flip::over(*p_, full, passes, popcount(by_color_[0]), popcount(by_color_[1]));
  }
  // `pass when-blocked`: the moves, or when there are none and the side has a piece on the
  // board, the pass.
  template <bool Count>
  uint64_t generate_or_pass(std::vector<Move>* out) {
    const size_t before = out ? out->size() : 0;
    const uint64_t n = generate_moves<Count>(out);
    const bool none = Count ? n == 0 : out->size() == before;
    if (!none || !by_color_[side_]) return n;
    if constexpr (!Count) out->push_back(make_move(0, 0, kNull));
    return 1;
  }
  // A position of a game with conversion: pieces change sides, so only both sides' pieces
  // of a type together are bounded by the start (with `supply unlimited`, nothing is); a
  // reserve never grows.
  void check_converted_material(std::string_view text) {
    if (flip_supply_) return;
    const FenFields start = parse_fen(p_->start_text, p_->width, p_->height, p_->letters + lower_letters());
    int init[2][kMaxTypes] = {}, total[kMaxTypes] = {};
    auto count = [&](char ch, bool reserve) {
      const size_t t = ch ? p_->letters.find(static_cast<char>(std::toupper(static_cast<unsigned char>(ch))))
                          : std::string::npos;
      if (t == std::string::npos) return;
      ++total[t];
      if (reserve) ++init[std::islower(static_cast<unsigned char>(ch)) ? 1 : 0][t];
    };
    for (char ch : start.cells) count(ch, false);
    for (char ch : start.reserve) count(ch, true);
    const size_t at = text.find('[') == std::string_view::npos ? 0 : text.find('[');
    for (int t = 0; t < p_->ntypes; ++t) {
      for (int c = 0; c < 2; ++c)
        if (reserve_[c][t] > init[c][t])
          throw PositionError(std::string(c ? "Black" : "White") + "'s reserve holds more " + p_->letters[t] +
                                  " than a side starts with",
                              at);
      if (popcount(by_type_[t]) + reserve_[0][t] + reserve_[1][t] > total[t])
        throw PositionError(std::string("more ") + p_->letters[t] + " than the set holds", at);
    }
  }

  // ---- hands and drops (`captures-to-hand`, `drop`; drops.hpp) -------------------------
  // After a move's board update: the victim joins the mover's reserve (demoted when it
  // stood promoted), and the promoted mark travels with the mover or is set by a promotion.
  void hand_make(Undo& u, int from, int to, int victim, bool promotes) {
    const Zobrist<N>& z = zob<N>();
    const int us = side_;
    if (u.captured >= 0) {
      const bool was = test(promoted_, victim);
      u.captured_promoted = was;
      if (was) {
        promoted_ &= ~bit(victim);
        hash_ ^= z.promoted[victim];
      }
      const int t = was ? p_->demote[u.captured >> 1] : u.captured >> 1;
      if (!p_->hand_to_partner) {  // `partner`: it leaves for the other board
        hash_ ^= reserve_key(z, us, t, reserve_[us][t]);
        ++reserve_[us][t];
        hash_ ^= reserve_key(z, us, t, reserve_[us][t]);
      }
    }
    // A promotion of a piece standing promoted is a demotion (shogi2 `demotes`): unmarked.
    const bool demotes = promotes && test(promoted_, from);
    u.mover_promoted = test(promoted_, from);
    if (u.mover_promoted) {
      promoted_ &= ~bit(from);
      hash_ ^= z.promoted[from];
      promotes = true;
    }
    if (promotes && marks_ && !demotes) {
      promoted_ |= bit(to);
      hash_ ^= z.promoted[to];
    }
  }
  // Its inverse, before the board is restored (the hash comes back from the Undo).
  void hand_unmake(const Undo& u, int from, int to, uint32_t kind) {
    promoted_ &= ~bit(to);
    if (u.mover_promoted) promoted_ |= bit(from);
    if (u.captured >= 0) {
      const int victim = kind == kEnPassant ? u.ep_victim : to;
      if (u.captured_promoted) promoted_ |= bit(victim);
      if (!p_->hand_to_partner)
        --reserve_[side_][u.captured_promoted ? p_->demote[u.captured >> 1] : u.captured >> 1];
    }
  }
  // The squares a drop of type t may go to, beyond the empty squares of the placement
  // region: not on its `forbidden` ranks, nor (`drop unique-on-file`) on a file holding an
  // own piece of its type.
  BB drop_squares(int us, int t, BB zone) const {
    zone &= ~t_->pieces[t].forbidden_zone[us];
    if (p_->types[t].drop_unique_file) {
      const int up = unit_dir(0, 1), down = unit_dir(0, -1);
      for (BB b = pieces(us, t); b; clear_lsb(b)) {
        const int s = lsb(b);
        zone &= ~(t_->ray[up][s] | t_->ray[down][s] | bit(s));
      }
    }
    if (opposite_colours_) [[unlikely]]
      zone = opposite_colour_squares(us, t, zone);
    if (const int limit = p_->types[t].drop_per_file; limit > 0) {
      const int up = unit_dir(0, 1);
      for (int x = 0; x < p_->width; ++x) {
        const BB file = t_->ray[up][x] | bit(x);
        if (popcount(pieces(us, t) & file) >= limit) zone &= ~file;
      }
    }
    return zone;
  }
  // `drop no-mate`: the drop m gives check and leaves the opponent without a legal action.
  bool drop_mates(Move m) {
    make(m);
    bool mate = false;
    if (royals_attacked(side_)) {
      const bool any = any_only_;
      any_only_ = true;
      mate = generate<true>(nullptr) == 0;
      any_only_ = any;
    }
    unmake();
    return mate;
  }
  // Where material changes hands: each type's pieces of both colours, on the board (a
  // promoted one counted as its base type) and in the reserves, are at most the start's;
  // unmarked promotions (`keep-promoted`) may add pieces of the types pawns promote to, no
  // more than the promoting pieces missing.
  void check_hand_material(std::string_view text) {
    // A `+X` in the start (kyoto shogi's) is the base letter X, counted as X.
    FenFields start = parse_fen(p_->start_text, p_->width, p_->height,
                                p_->letters + lower_letters() + (p_->plus_marks ? "+" : "~"));
    int init[kMaxTypes] = {}, have[kMaxTypes] = {};
    auto type_of_letter = [&](char ch) {
      return static_cast<int>(
          p_->letters.find(static_cast<char>(std::toupper(static_cast<unsigned char>(ch)))));
    };
    for (size_t i = 0; i < start.cells.size(); ++i)
      if (start.cells[i]) {
        const int t = type_of_letter(start.cells[i]);
        ++init[i < start.promoted.size() && start.promoted[i] ? p_->demote[t] : t];
      }
    for (char ch : start.reserve) ++init[type_of_letter(ch)];
    for (int s = 0; s < p_->squares; ++s)
      if (board_[s] >= 0) ++have[test(promoted_, s) ? p_->demote[board_[s] >> 1] : board_[s] >> 1];
    for (int c = 0; c < 2; ++c)
      for (int t = 0; t < p_->ntypes; ++t) have[t] += reserve_[c][t];
    int missing = 0, extra = 0;
    uint32_t targets = 0;
    for (int t = 0; t < p_->ntypes; ++t)
      for (char c : p_->types[t].promote_to) targets |= 1u << static_cast<int>(c);
    for (int t = 0; t < p_->ntypes; ++t) {
      if (!p_->types[t].promote_to.empty()) missing += std::max(0, init[t] - have[t]);
      if (have[t] <= init[t]) continue;
      if (marks_ || !(targets >> t & 1))
        throw PositionError(std::string("more ") + p_->letters[t] +
                                " (on the board, promoted ones counted as what they promoted from, and in "
                                "the reserves) than the start holds",
                            text.find('[') == std::string_view::npos ? 0 : text.find('['));
      extra += have[t] - init[t];
    }
    if (extra > missing)
      throw PositionError("more pieces than the start and its promotions can account for",
                          text.find('[') == std::string_view::npos ? 0 : text.find('['));
  }

  std::string lower_letters() const {
    std::string l;
    for (char c : p_->letters) l.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    return l;
  }

  // ---- the shogi family (shogi2.hpp) ---------------------------------------------------
  // `must-drop`: the side's reserve holds a piece.
  bool hand_holds(int c) const {
    for (int t = 0; t < p_->ntypes; ++t)
      if (reserve_[c][t] > 0) return true;
    return false;
  }
  // `must-drop`: when a drop is legal, only drops are.
  template <bool Count>
  uint64_t generate_must_drop(std::vector<Move>* out) {
    forced_buf_.clear();
    generate_moves<false>(&forced_buf_);
    const bool any_drop =
        std::any_of(forced_buf_.begin(), forced_buf_.end(), [](Move m) { return kind_of(m) == kPlace; });
    if (any_drop)
      forced_buf_.erase(
          std::remove_if(forced_buf_.begin(), forced_buf_.end(), [](Move m) { return kind_of(m) != kPlace; }),
          forced_buf_.end());
    if constexpr (!Count) out->insert(out->end(), forced_buf_.begin(), forced_buf_.end());
    return forced_buf_.size();
  }
  // `drop opposite-colours`: narrows the drop squares of type t (the restricted type, or
  // another type while the side still holds restricted pieces) so that the side's pieces of
  // each restricted type can stand half on each square colour (Fairy-Stockfish's
  // dropOppositeColoredBishop: the placement region counts as the room left).
  BB opposite_colour_squares(int us, int t, BB zone) const {
    for (int b = 0; b < p_->ntypes; ++b) {
      if (!p_->types[b].drop_opposite_colours) continue;
      const int total = popcount(pieces(us, b)) + reserve_[us][b];
      if (b == t) {
        BB ok{};
        for (BB z = zone; z; clear_lsb(z)) {
          const int s = lsb(z);
          const BB same = test(dark_, s) ? dark_ : ~dark_;
          if (popcount(same & pieces(us, b)) + 1 <= (total + 1) / 2) ok |= bit(s);
        }
        zone = ok;
      } else if (reserve_[us][b] > 0) {
        const BB room = t_->place_zone[us] & ~occupied();
        BB ok{};
        for (BB z = zone; z; clear_lsb(z)) {
          const int s = lsb(z);
          const BB left = pieces(us, b) | (room & ~bit(s));
          if (popcount(dark_ & left) >= total / 2 && popcount(~dark_ & t_->board_mask & left) >= total / 2)
            ok |= bit(s);
        }
        zone = ok;
      }
    }
    return zone;
  }
  // `castling { by-drop }`: after a drop of `placed` on `to` by `us`, the castling rights a
  // king on the middle file of the castling rank gains with the rooks on its corners.
  void castle_rights_by_drop(int us, int placed, int to) {
    const int rank = us == 0 ? p_->castling_rank - 1 : p_->height - p_->castling_rank;
    const int home = rank * p_->width + p_->width / 2;
    const int corners[2] = {rank * p_->width + p_->width - 1, rank * p_->width};  // king side, queen side
    auto is_rook = [&](int s) {
      return board_[s] >= 0 && (board_[s] & 1) == us &&
             std::find(p_->castling_rooks.begin(), p_->castling_rooks.end(), p_->letters[board_[s] >> 1]) !=
                 p_->castling_rooks.end();
    };
    const bool king_home = board_[home] == p_->castling_king * 2 + us;
    if (!king_home) return;
    for (int side = 0; side < 2; ++side) {
      const int rsq = corners[side];
      if (!(to == home || to == rsq) || !is_rook(rsq)) continue;
      if (to == rsq && placed == p_->castling_king) continue;
      const int idx = us * 2 + side;
      castling_ |= static_cast<uint8_t>(1 << idx);
      rook_sq_[idx] = rsq;
      castle_from_[idx] = home;
      int kto, rto;
      castle_targets(side == 0 ? kCastleK : kCastleQ, us, kto, rto);
      castle_path_[idx] = t_->between(home, kto) | bit(kto);
      castle_need_[idx] = (castle_path_[idx] | t_->between(rsq, rto) | bit(rto)) & ~bit(home) & ~bit(rsq);
      castle_clear_[rsq] |= static_cast<uint8_t>(1 << idx);
      castle_clear_[home] |= static_cast<uint8_t>(1 << idx);
    }
  }

  // `region-reached ... safe` (dobutsu's lion): colour c's pieces of the flag types stand in
  // the region as `any` or `all` asks, and no enemy piece attacks one of them there.
  bool flag_safe_reached(int c, BB r) const {
    const BB in = r & t_->flag_zone[c];
    if (!in || (!p_->flag_any && (r & ~t_->flag_zone[c]))) return false;
    const BB occ = occupied();
    for (BB b = in; b; clear_lsb(b))
      if (attacked(lsb(b), c ^ 1, occ)) return false;
    return true;
  }
  // Fairy-Stockfish's order: the side to move has reached it safely (on an earlier turn,
  // and it was not captured since): it wins, or draws when the opponent has too; else the
  // opponent reached it safely: it wins.
  bool flag_safe_ended(bool& draw) const {
    if (invaded(side_)) {
      draw = invaded(side_ ^ 1);
      return true;
    }
    return invaded(side_ ^ 1);
  }
// clang-format on
