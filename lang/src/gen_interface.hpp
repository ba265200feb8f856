// The generator's Engine interface: position text, actions, status, the card layer's hook, perft.
//
// A part of the body of class Generator (generator_impl.hpp includes it inside the
// class, in this place): member functions moved out of generator.cpp unchanged, so
// the class and its inlining are as they were. Not a standalone header; include it
// nowhere else. clang-format would unindent it: it is formatted as part of the class.
// clang-format off

  // ---- position text ----------------------------------------------------------------
  void set_position(std::string_view text) override {
    // `start`, and with `setup chess960` `start:N` (Chess960 start N, RULINGS 4.2).
    if (text == "start") return set_position(p_->start_text);
    if (text.substr(0, 6) == "start:") {
      std::string_view num = text.substr(6);
      if (num.empty() || num.size() > 3 || num.find_first_not_of("0123456789") != std::string_view::npos)
        throw PositionError("start:N needs N in 0..959", 6);
      std::string start = program_start(*p_, std::stoi(std::string(num)));
      return set_position(start);
    }
    std::string allowed;
    for (int t = 0; t < p_->ntypes; ++t) {
      if (p_->plus_marks && p_->plus_base[t] >= 0) continue;  // written `+BASE`
      allowed.push_back(p_->letters[t]);
      allowed.push_back(static_cast<char>(std::tolower(p_->letters[t])));
    }
    if (p_->walls) allowed.push_back('*');  // wall squares
    if (p_->plus_marks)
      allowed.push_back('+');  // shogi's `+P`
    else if (p_->hand_marks)
      allowed.push_back('~');  // promoted pieces are marked
    FenFields f = parse_fen(text, p_->width, p_->height, allowed);
    Generator g(*this, 0);
    g.load(f, text);
    *this = g;
  }

  std::string position() const override {
    FenFields f;
    f.width = p_->width;
    f.height = p_->height;
    f.cells.assign(static_cast<size_t>(p_->squares), 0);
    for (int s = 0; s < p_->squares; ++s)
      if (board_[s] >= 0) f.cells[s] = letter(board_[s]);
    for (BB w = walls_; w; clear_lsb(w)) f.cells[lsb(w)] = '*';
    if (p_->plus_marks) {
      f.plus.assign(f.cells.size(), false);
      for (int s = 0; s < p_->squares; ++s)
        if (board_[s] >= 0 && p_->plus_base[board_[s] >> 1] >= 0) {
          f.plus[s] = true;
          f.cells[s] = letter(p_->plus_base[board_[s] >> 1] * 2 + (board_[s] & 1));
        }
    } else if (promoted_) {
      f.promoted.assign(f.cells.size(), false);
      for (BB b = promoted_; b; clear_lsb(b)) f.promoted[lsb(b)] = true;
    }
    f.has_reserve = p_->has_reserve;
    for (int c = 0; c < 2; ++c)
      for (int t = 0; t < p_->ntypes; ++t)
        for (int k = 0; k < reserve_[c][t]; ++k)
          f.reserve.push_back(c == 0 ? p_->letters[t] : static_cast<char>(std::tolower(p_->letters[t])));
    f.side = side_ == 0 ? Color::White : Color::Black;
    std::vector<CastlingRight> rights;
    for (int i = 0; i < 4; ++i)
      if (castling_ & (1 << i))
        rights.push_back({i < 2 ? Color::White : Color::Black, rook_sq_[i] % p_->width});
    char royal = p_->castling_king >= 0 ? p_->letters[p_->castling_king] : 'K';
    if (p_->castling_shredder) {
      // Shredder-FEN: each right as its rook's file, White's first, king side first.
      f.castling.clear();
      for (const auto& r : rights)
        f.castling.push_back(static_cast<char>((r.color == Color::White ? 'A' : 'a') + r.rook_file));
      if (f.castling.empty()) f.castling = "-";
    } else {
      f.castling = format_castling(f, rights, royal, p_->castling_rooks, p_->castling_rank);
    }
    if (ep_ >= 0) write_ep(f);
    if (counting_checks_) f.checks_remaining = std::array<int, 2>{checks_left_[0], checks_left_[1]};
    f.halfmove = halfmove_;
    f.fullmove = fullmove_;
    return format_fen(f);
  }

  // ---- actions ----------------------------------------------------------------------
  // The turn layer (Program::turn): a complete turn is the normal action, then, when the
  // ruleset has an optional `royal-move` phase, a move of one own royal piece. An action is
  // the whole turn: lo holds the first step, and the second in its high half when hi is 1.
  void legal_actions(std::vector<Action>& out) override {
    out.clear();
    std::vector<Move>& moves = legal_buf_;  // reused: no allocation per call
    moves.clear();
    generate<false>(&moves);
    out.reserve(moves.size());
    for (Move m : moves) {
      out.push_back(Action{m, 0});
      if (!royal_phase_ || !(turn_phase_ || p_->king_turn[side_])) continue;
      make(m, /*ends_turn=*/false);
      // A normal action that wins by midline invasion ends the game (RULINGS 4.12).
      if (p_->invasion && !p_->flag_held && invaded(side_)) {
        unmake();
        continue;
      }
      std::vector<Move> seconds;
      royal_only_ = true;
      generate<false>(&seconds);
      royal_only_ = false;
      unmake();
      for (Move m2 : seconds) out.push_back(Action{m | (uint64_t{m2} << 32), 1});
    }
  }

  // Only the legal actions onto one square: the plain loop's copy that tests and emits no
  // other (generate_impl's Only). Programs whose list is more than the plain loop's (the
  // turn layer, end conditions and forced actions, Chess 2's primitives) list them all.
  bool legal_actions_to(Coord c, std::vector<Action>& out) override {
    if (ends_any_ || rich_ || royal_take_ || pseudo_ || royal_phase_ || c.x < 0 || c.x >= p_->width ||
        c.y < 1 || c.y > p_->height)
      return false;
    only_to_ = (c.y - 1) * p_->width + c.x;
    legal_buf_.clear();
    generate_impl<false, false, false, true>(&legal_buf_);
    only_to_ = -1;
    out.clear();
    for (Move m : legal_buf_) out.push_back(Action{m, 0});
    return true;
  }

  // The same generation with the royal-safety stage switched off (pseudo_): no pins, no
  // evasions, and the legality test accepts every action the movement rules produce.
  void pseudo_legal_actions(std::vector<Action>& out) override {
    pseudo_ = true;
    legal_actions(out);
    pseudo_ = false;
  }

  void apply(const Action& a) override {
    if (a.hi == 1) {
      make(static_cast<Move>(a.lo), /*ends_turn=*/false);
      make(static_cast<Move>(a.lo >> 32));
    } else {
      make(static_cast<Move>(a.lo));
    }
  }
  void undo() override {
    if (stack_.empty()) return;
    unmake();
    // A turn's second step came after a first that did not end the turn: undo both.
    if (!stack_.empty() && !stack_.back().ends_turn) unmake();
  }

  ActionInfo describe(const Action& a) const override {
    if (a.hi == 1) {
      ActionInfo info = describe(Action{static_cast<Move>(a.lo), 0});
      Generator after(*this);
      after.make(static_cast<Move>(a.lo), /*ends_turn=*/false);
      ActionInfo second = after.describe(Action{static_cast<Move>(a.lo >> 32), 0});
      for (Step& s : second.steps) {
        s.phase = 1;  // the turn's second phase (Chess 2: the king-turn)
        info.steps.push_back(s);
      }
      return info;
    }
    Move m = static_cast<Move>(a.lo);
    if (has_wall(m)) {
      // The move, then its wall: Fairy-Stockfish writes `e2e4,e4e5` (the wall aimed from the
      // mover's destination, the king's when castling).
      ActionInfo info = describe(Action{m & ((1u << 23) - 1), 0});
      const Step& mv = info.steps[0];
      Step w;
      w.kind = StepKind::Wall;
      w.from = mv.castle != Castle::None && !chess960_ ? mv.king_to : mv.to;
      w.to = coord(wall_of(m));
      w.phase = 1;
      info.steps.push_back(w);
      return info;
    }
    Step s;
    int from = from_of(m), to = to_of(m);
    uint32_t k = kind_of(m);
    if (k == kPlace) {
      s.kind = StepKind::Place;
      s.piece = p_->letters[type_of(m)];
      s.to = coord(to);
      return ActionInfo{{s}};
    }
    // `pass when-blocked` (gen_flip.hpp) is written `pass`; janggi's `pass` (gen_pass.hpp) as
    // the royal piece's move to its own square, as Fairy-Stockfish writes it (`e2e2`).
    if (k == kNull && !p_->pass) {
      s.kind = StepKind::Pass;
      return ActionInfo{{s}};
    }
    s.kind = sub_of(m) == kSubStrike || sub_of(m) == kSubWhirl ? StepKind::Remove : StepKind::Move;
    s.piece = board_[from] >= 0 ? p_->letters[board_[from] >> 1] : '?';
    s.from = coord(from);
    s.to = coord(to);
    if (sub_of(m) == kSubRampage) {
      // The pieces on the path, nearest first.
      const int d = t_->dir[from][to];
      for (int q = from; q != to;) {
        q = first(d, q, occupied() | bit(to));
        if (board_[q] >= 0) s.removed.push_back({coord(q), letter(board_[q])});
      }
      return ActionInfo{{s}};
    }
    if (sub_of(m) == kSubWhirl) {
      for (BB v = whirl_victims(from); v; clear_lsb(v))
        s.removed.push_back({coord(lsb(v)), letter(board_[lsb(v)])});
      return ActionInfo{{s}};
    }
    if (k == kCastleK || k == kCastleQ) {
      s.castle = k == kCastleK ? Castle::KingSide : Castle::QueenSide;
      int rank = side_ == 0 ? 0 : p_->height - 1;
      s.king_to = coord(rank * p_->width + (k == kCastleK ? p_->ks_king_to : p_->qs_king_to));
    }
    if (k != kCastleK && k != kCastleQ && k != kNull) {  // a pass (kNull) takes nothing
      int victim = k == kEnPassant ? ep_victim_ : to;
      if (victim >= 0 && board_[victim] >= 0) {
        s.removed.push_back({coord(victim), letter(board_[victim])});
        if (blast_types_ >> (board_[from] >> 1) & 1) describe_blast(m, victim, s);
      }
    }
    if (k == kPromote) s.promotion = p_->letters[type_of(m)];
    return ActionInfo{{s}};
  }

  // describe() without allocating: the record validator calls it on every legal action.
  StepBrief brief(const Action& a) const override {
    StepBrief b;
    b.steps = a.hi == 1 || has_wall(static_cast<Move>(a.lo)) ? 2 : 1;
    Move m = static_cast<Move>(a.lo);
    int from = from_of(m), to = to_of(m);
    uint32_t k = kind_of(m);
    b.to = coord(to);
    if (k == kPlace) {
      b.kind = StepKind::Place;
      b.piece = p_->letters[type_of(m)];
      return b;
    }
    if (k == kNull && !p_->pass) {
      b.kind = StepKind::Pass;
      return b;
    }
    b.piece = board_[from] >= 0 ? p_->letters[board_[from] >> 1] : '?';
    b.from = coord(from);
    if (sub_of(m) == kSubStrike || sub_of(m) == kSubWhirl) b.kind = StepKind::Remove;
    if (sub_of(m) == kSubRampage || sub_of(m) == kSubWhirl) {
      b.capture = true;  // a rampage always removes a piece
      return b;
    }
    if (k == kCastleK || k == kCastleQ) {
      b.castle = k == kCastleK ? Castle::KingSide : Castle::QueenSide;
      int rank = side_ == 0 ? 0 : p_->height - 1;
      b.king_to = coord(rank * p_->width + (k == kCastleK ? p_->ks_king_to : p_->qs_king_to));
      return b;
    }
    int victim = k == kEnPassant ? ep_victim_ : to;
    b.capture = k != kNull && victim >= 0 && board_[victim] >= 0;
    if (k == kPromote) b.promotion = p_->letters[type_of(m)];
    return b;
  }

  // ---- status -----------------------------------------------------------------------
  Status status() override {  // only "some legal action or none" matters: the count stops at 1
    if (royal_step_exists()) return status_of(1);
    any_only_ = true;
    const uint64_t n = generate<true>(nullptr);
    any_only_ = false;
    return status_of(n);
  }
  // verdict_of() asks the count only for n == 0, after every end the generation itself
  // would stop at (counted ends, invasion, lost royal pieces).
  Status status_when_movable() override { return status_of(1); }
  Status status_and_actions(std::vector<Action>& out) override {
    legal_actions(out);
    return status_of(out.size());
  }
  Status status_of(uint64_t n) {
    Status st = verdict_of(n);
    if (p_->draw_odds >= 0) [[unlikely]]
      misc::apply_draw_odds(p_->draw_odds, st);
    return st;
  }
  Status verdict_of(uint64_t n) {  // n: the number of legal actions (only n == 0 matters)
    Status st;
    st.in_check = in_check();
    if (p_->claim_fifty && halfmove_ >= p_->claim_fifty) st.claim_fifty = true;
    if (p_->claim_repetition) {
      int count = 0;
      for (uint64_t h : history_)
        if (h == hash_) ++count;
      st.claim_threefold = count >= p_->claim_repetition;
    }
    bool draw = false;
    if (p_->invasion && region_ended(draw)) {
      // The side that reached the region wins: the opponent, or (`unless-answered`) the side
      // to move when it reached it on an earlier turn.
      const bool mover_won = (p_->flag_answer || p_->flag_safe || p_->flag_held) && invaded(side_);
      st.result = draw ? Result::Draw : (side_ == 0) != mover_won ? Result::BlackWins : Result::WhiteWins;
      st.end = Termination::RegionReached;
      st.reason = p_->invasion_reason;
      return st;
    }
    if (royal_ends_ && (royal_lost(side_) || royal_lost(side_ ^ 1))) {
      // The side that lost its royal pieces loses: the side to move, or the mover, whose
      // own explosion took them.
      const bool mover_lost = !royal_lost(side_);
      st.result = (side_ == 0) != mover_lost ? Result::BlackWins : Result::WhiteWins;
      st.end = Termination::RoyalCapture;
      st.reason = "royal-capture";
      return st;
    }
    if (counted_ends_) [[unlikely]] {
      const ends::Verdict v = counted_verdict();
      if (v.over) {
        st.result = v.result;
        st.end = v.end;
        st.reason = v.reason;
        return st;
      }
    }
    if (n == 0) {
      if (!st.in_check && p_->no_move_loses) {
        st.result = side_ == 0 ? Result::BlackWins : Result::WhiteWins;
        st.end = Termination::NoLegalMove;
        st.reason = "no-legal-move";
      } else {  // checkmate or stalemate, with the ruleset's results
        int more = 0;
        if (p_->stalemate_by_count) {
          // The pieces on the board, as Fairy-Stockfish's stalematePieceCount counts them.
          more = popcount(by_color_[side_]) - popcount(by_color_[side_ ^ 1]);
        }
        ends::Verdict v = ends::no_move(*p_, side_, st.in_check, more);
        bool by_drop = false;
        if (st.in_check && !p_->mate_rules.empty()) [[unlikely]]
          v.result = ends::result_for(side_, mate_rule_value(p_->checkmate_value, &by_drop));
        st.result = v.result;
        st.end = v.end;
        st.reason = by_drop ? "checkmate-by-drop" : v.reason;
      }
      return st;
    }
    if (p_->insufficient_draw && insufficient()) {
      st.result = Result::Draw;
      st.end = Termination::InsufficientMaterial;
      st.reason = "insufficient-material";
    }
    return st;
  }

  uint64_t hash() const override { return hash_; }
  Color side_to_move() const override { return side_ == 0 ? Color::White : Color::Black; }
  bool chess960() const override { return chess960_; }
  std::unique_ptr<Engine> clone() const override { return std::make_unique<Generator>(*this); }

  // ---- the card layer's hook (card_board.hpp) ------------------------------------------
  void set_move_types(uint32_t mask) override { move_types_ = mask; }
  uint64_t count_moves() override { return generate<true>(nullptr); }
  void list_moves(std::vector<Action>& out) override {
    card_moves_.clear();
    generate<false>(&card_moves_);
    for (Move m : card_moves_) out.push_back(Action{m, 0});
  }
  void list_pseudo_moves(std::vector<Action>& out) override {
    pseudo_ = true;
    list_moves(out);
    pseudo_ = false;
  }
  void pass_turn() override { make(make_move(0, 0, kNull)); }
  bool has_royal(int c) const override { return royal_square(c) >= 0; }
  bool in_check() override { return p_->royal_safe && royals_in_check(side_); }
  bool side_in_check() override { return in_check(); }
  bool gives_check(const Action& a) override {  // plain programs: the attack after a light make
    if (rich_ || a.hi || !p_->royal_safe || p_->petrify_types || has_wall(static_cast<Move>(a.lo)))
      return Engine::gives_check(a);
    const Move m = static_cast<Move>(a.lo);
    const int moved = kind_of(m) == kPlace ? -1 : board_[from_of(m)];
    const Light l = light_make(m);
    const bool check = royals_attacked(side_ ^ 1);
    light_unmake(m, l, moved);
    return check;
  }

  uint64_t perft(int depth) override {
    if (royal_phase_) return perft_turns(depth);  // turns of two steps
    if (depth >= 2 && plain_steps()) return perft_plain(depth);
    if (depth <= 0) return 1;
    if (depth == 1) return generate<true>(nullptr);
    if (static_cast<int>(buffers_.size()) <= depth) buffers_.resize(depth + 1);
    std::vector<Move>& moves = buffers_[depth];
    moves.clear();
    generate<false>(&moves);
    uint64_t n = 0;
    for (size_t i = 0; i < moves.size(); ++i) {
      make(buffers_[depth][i]);
      n += perft(depth - 1);
      unmake();
    }
    return n;
  }
// clang-format on
