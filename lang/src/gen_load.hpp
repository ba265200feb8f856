// Reading a position: load() from FEN fields, en-passant victims, the material check.
//
// A part of the body of class Generator (generator_impl.hpp includes it inside the
// class, in this place): member functions moved out of generator.cpp unchanged, so
// the class and its inlining are as they were. Not a standalone header; include it
// nowhere else. clang-format would unindent it: it is formatted as part of the class.
// clang-format off

  // A promotion to a royal type may land on an attacked square, as Fairy-Stockfish plays
  // it (coregal's c7d8q beside Black's queen; the promoted piece is not yet a royal the
  // move's legality looks at): the position it reaches reads back when every royal piece of
  // colour c in check is of a type c promotes to, standing where that promotion lands.
  bool checked_royals_promoted(int c) const {
    const BB occ = occupied();
    for (BB b = royals(c); b; clear_lsb(b)) {
      const int s = lsb(b), type = board_[s] >> 1;
      if (!attacked(s, c ^ 1, occ)) continue;
      bool promoted = false;
      for (int t = 0; t < p_->ntypes && !promoted; ++t)
        promoted = p_->types[t].promote_choices[c].find(static_cast<char>(type)) != std::string::npos &&
                   test(t_->pieces[t].promote_zone[c], s);
      if (!promoted) return false;
    }
    return true;
  }

  void load(const FenFields& f, std::string_view text) {
    borrowing_ = p_->borrowing;
    rich_ = p_->chess2_primitives;
    animals_ = false;
    within_types_ = immune_types_ = line_check_types_ = rampage_types_ = whirl_types_ = blast_types_ = 0;
    // The card layer judges a royal capture itself (its board program runs the plain loop).
    royal_ends_ = p_->royal_capture && !p_->cards && p_->royal_type >= 0 && rich_;
    royal_take_ = p_->royal_capture && p_->royal_safe;
    multi_royal_ =
        __builtin_popcount(p_->royal_types) > 1 || p_->royal_count[0] > 1 || p_->royal_count[1] > 1;
    for (int t = 0; t < p_->ntypes; ++t) {
      const PieceProgram& pp = p_->types[t];
      if (pp.animal()) animals_ = true;
      if (pp.captured_within > 0) within_types_ |= 1u << t;
      if (pp.immune) immune_types_ |= 1u << t;
      bool lines = !pp.strike.lines[0].empty();
      for (const PieceProgram::Line& l : pp.limited[0]) lines = lines || l.capture;
      if (lines && pp.gives_check) line_check_types_ |= 1u << t;
      if (pp.rampage.reach > 0 && pp.gives_check) rampage_types_ |= 1u << t;
      if (pp.whirlwind() && pp.gives_check && !whirl_covered(t)) whirl_types_ |= 1u << t;
      if (pp.explodes()) blast_types_ |= 1u << t;
      int reach_of = pp.rampage.reach;
      for (const auto* lines : {&pp.strike.lines[0], &pp.limited[0]})
        for (const PieceProgram::Line& l : *lines)
          if (l.capture) reach_of = (l.range == 0 || reach_of < 0) ? -1 : std::max(reach_of, l.range);
      line_reach_[t] = reach_of < 0 ? 0 : reach_of;
    }
    path_types_ = path_check_types_ = 0;
    for (int t = 0; t < p_->ntypes; ++t) {
      const PieceProgram& pp = p_->types[t];
      if (pp.paths[0].empty()) continue;
      path_types_ |= 1u << t;
      bool captures = false;
      for (const PieceProgram::Path& w : pp.paths[0]) captures = captures || w.capture;
      if (captures && pp.gives_check) path_check_types_ |= 1u << t;
    }
    animal_attacks_ = (line_check_types_ | rampage_types_ | whirl_types_ | path_check_types_) != 0;
    // The flying general and the ban on giving check judge every action after it is made.
    const bool facing_or_no_check = p_->royals_not_facing || p_->no_check_given;
    plain_king_ = !multi_royal_ && !borrowing_ && !animal_attacks_ && !blast_types_ && !p_->royals_apart &&
                  !facing_or_no_check;
    bool whirls = false;
    target_types_ = path_types_;
    for (int t = 0; t < p_->ntypes; ++t) {
      const PieceProgram& pp = p_->types[t];
      if (pp.borrows || pp.teleport_move || pp.teleport_capture || !pp.limited[0].empty() ||
          !pp.limited[1].empty() || !pp.own_leaps[0].empty() || !pp.own_leaps[1].empty() ||
          !pp.region_leaps[0].empty() || !pp.region_leaps[1].empty())
        target_types_ |= 1u << t;
    }
    for (int t = 0; t < p_->ntypes; ++t) whirls = whirls || p_->types[t].whirlwind();
    // Not where captures explode: safe_after_blast judges every action on the board.
    occupancy_tests_ = !rampage_types_ && !p_->royals_apart && !blast_types_ && !facing_or_no_check &&
                       !p_->duple_check && (multi_royal_ || whirls);
    removed_.clear();
    lrem_.assign(N + 1, {});
    board_.fill(-1);
    for (int y = 1; y <= p_->height; ++y)
      for (int x = 0; x < p_->width; ++x) {
        char ch = f.at(Coord{x, y});
        if (!ch || ch == '*') continue;  // a wall square: load_walls
        int c = std::islower(static_cast<unsigned char>(ch)) ? 1 : 0;
        int t = static_cast<int>(p_->letters.find(static_cast<char>(std::toupper(ch))));
        const size_t i = static_cast<size_t>((y - 1) * p_->width + x);
        if (i < f.plus.size() && f.plus[i]) {  // `+P`: the type P promotes to
          if (p_->plus_of[t] < 0)
            throw PositionError(std::string("`+") + ch + "`: " + static_cast<char>(std::toupper(ch)) +
                                    " promotes to no piece",
                                0);
          t = p_->plus_of[t];
        }
        put((y - 1) * p_->width + x, t * 2 + c);
      }
    hand_ = p_->capture_to_hand;
    marks_ = p_->hand_marks;
    promoted_ = BB{};
    if (p_->plus_marks)  // every piece of a promoted type stands promoted
      for (int t = 0; t < p_->ntypes; ++t)
        if (p_->plus_base[t] >= 0) promoted_ |= by_type_[t];
    for (size_t i = 0; i < f.promoted.size(); ++i)
      if (f.promoted[i] && f.cells[i]) promoted_ |= bit(static_cast<int>(i));
    if (p_->has_reserve && !f.has_reserve)
      throw PositionError(
          "this variant's position text needs the reserves in brackets after the board, e.g. [QRqr]",
          text.find(' ') == std::string_view::npos ? 0 : text.find(' '));
    if (!p_->has_reserve && f.has_reserve)
      throw PositionError("this variant has no reserves, but the position gives some", text.find('['));
    for (char ch : f.reserve) {
      int c = std::islower(static_cast<unsigned char>(ch)) ? 1 : 0;
      int t = static_cast<int>(p_->letters.find(static_cast<char>(std::toupper(ch))));
      if (++reserve_[c][t] > 256)
        throw PositionError("more than 256 pieces of one type in a reserve", text.find('['));
    }
    side_ = f.side == Color::White ? 0 : 1;
    flip_ends_ = p_->flips.ends();
    pass_ = p_->flips.pass;
    flip_drops_ = p_->flips.drop_rules();
    flip_supply_ = p_->flips.supply_unlimited;
    convert_types_ = 0;
    for (int t = 0; t < p_->ntypes; ++t)
      if (p_->types[t].convert.on()) convert_types_ |= 1u << t;
    counted_ends_ = !p_->extinctions.empty() || p_->checks_to_win > 0 || p_->pass || flip_ends_;
    counting_checks_ = p_->checks_to_win > 0;
    ends_any_ = counted_ends_ || p_->must_capture || pass_ || p_->wall_rule != Program::WallRule::None ||
                p_->must_drop || p_->must_drop_type >= 0;
    load_walls(f, text);
    opposite_colours_ = false;
    for (int t = 0; t < p_->ntypes; ++t)
      opposite_colours_ = opposite_colours_ || p_->types[t].drop_opposite_colours;
    dark_ = BB{};
    for (int s = 0; s < p_->squares; ++s)
      if ((s % p_->width + s / p_->width) % 2 == 0) dark_ |= bit(s);
    if (f.checks_remaining && !counting_checks_)
      throw PositionError("this variant counts no checks; the position text has a check counter",
                          text.find('+') == std::string_view::npos ? 0 : text.find('+'));
    checks_left_.fill(static_cast<int8_t>(p_->checks_to_win));
    if (f.checks_remaining)
      for (int c = 0; c < 2; ++c) {
        if ((*f.checks_remaining)[c] > 9)
          throw PositionError("a check counter holds 0..9 checks to give", text.find('+'));
        checks_left_[c] = static_cast<int8_t>((*f.checks_remaining)[c]);
      }
    halfmove_ = f.halfmove;
    fullmove_ = f.fullmove;
    // Validation.
    for (int c = 0; c < 2; ++c) {
      const char* who = c == 0 ? "White" : "Black";
      if (!p_->army[c].empty())
        for (int t = 0; t < p_->ntypes; ++t)
          if (pieces(c, t) && !(p_->army_types[c] >> t & 1)) {
            char l = c == 0 ? p_->letters[t] : static_cast<char>(std::tolower(p_->letters[t]));
            throw PositionError(
                std::string(who) + " plays the army `" + p_->army[c] + "`, which has no " + p_->letters[t],
                text.find(l) == std::string_view::npos ? 0 : text.find(l));
          }
      if (multi_royal_) {
        // Each colour holds its army's royal pieces (Two Kings: two warrior kings).
        const int total = popcount(royals(c));
        // Two Kings may play on with one warrior king (the reference accepts it as well).
        if (total < 1 || total > p_->royal_count[c])
          throw PositionError(
              std::string(who) + " must have " +
                  (p_->royal_count[c] == 1 ? "exactly 1" : "1 to " + std::to_string(p_->royal_count[c])) +
                  " royal piece" + (p_->royal_count[c] == 1 ? "" : "s") + " (found " + std::to_string(total) +
                  ")",
              0);
      } else if (p_->royal_type >= 0) {
        int on_board = popcount(pieces(c, p_->royal_type));
        int total = on_board + reserve_[c][p_->royal_type];
        // A game won by capturing the royal piece may leave the side to move without one
        // (or, where captures explode, the mover, whose own explosion took it).
        if (p_->no_royal[c]) {
          if (total != 0)
            throw PositionError(std::string(who) + " plays without a royal piece (its start has no " +
                                    p_->letters[p_->royal_type] + "); found " + std::to_string(total),
                                0);
        } else if (total != 1 && !(p_->royal_capture && total == 0 && (c == side_ || blast_types_)))
          throw PositionError(std::string(who) + " must have exactly one " + p_->letters[p_->royal_type] +
                                  " (found " + std::to_string(total) + ")",
                              0);
      }
      for (int t = 0; t < p_->ntypes; ++t) {
        if (p_->types[t].must_promote && (pieces(c, t) & t_->pieces[t].promote_zone[c]))
          throw PositionError(std::string(who) + " has a " + p_->letters[t] + " on its promotion rank", 0);
        if (pieces(c, t) & t_->pieces[t].forbidden_zone[c])
          throw PositionError(
              std::string(who) + " has a " + p_->letters[t] + " on a rank where it may not stand", 0);
        // A confined royal piece (the xiangqi general) never leaves its region: a position
        // with it outside is none the rules reach (issue 26: Fairy-Stockfish lists no move
        // there). Regions and bitboards number squares alike (y * width + x).
        if (const int r = p_->types[t].confine; r >= 0 && p_->types[t].royal)
          for (BB b = pieces(c, t); b; clear_lsb(b))
            if (const int s = lsb(b); !p_->regions[r][c].test(static_cast<size_t>(s)))
              throw PositionError(std::string(who) + " has its royal " + p_->letters[t] + " on " +
                                      static_cast<char>('a' + s % p_->width) + std::to_string(s / p_->width + 1) +
                                      ", outside the region it is confined to",
                                  0);
      }
    }
    // Reserve variants start from a known set: no side may hold more than it, promotions
    // aside (extra pieces of a type a pawn promotes to, paid for by missing pawns).
    if (hand_) {
      // `partner`: the other board's captures fill these hands, whatever their counts.
      if (!p_->hand_to_partner) check_hand_material(text);
    } else if (convert_types_)
      check_converted_material(text);
    else if (p_->has_reserve)
      check_material(text);
    {
      int k = royal_square(side_ ^ 1);
      // Where a royal piece may be captured (a lost turn in check), the side not to move
      // may stand in check.
      // Where captures explode, only the winner of a game ended by removing the royal
      // piece of the side to move may.
      if (k >= 0 && p_->royal_safe && !(p_->royal_capture && (!blast_types_ || royal_lost(side_))) &&
          royals_in_check(side_ ^ 1) && !checked_royals_promoted(side_ ^ 1))
        throw PositionError("the side not to move is in check",
                            text.find(' ') == std::string_view::npos ? 0 : text.find(' ') + 1);
      int k2 = royal_square(side_);
      if (k >= 0 && k2 >= 0 && p_->royals_apart && test(t_->adjacent[k], k2))
        throw PositionError("the royal pieces stand adjacent", 0);
      // `royals-not-facing` (the flying general): the side that moved last cannot have left
      // the royal pieces facing on an open line (issue 26: Fairy-Stockfish would play on as
      // if the side to move were in check).
      if (p_->royals_not_facing)
        for (BB a = royals(0); a; clear_lsb(a))
          for (BB b = royals(1); b; clear_lsb(b)) {
            const int d = t_->dir[lsb(a)][lsb(b)];
            if (d >= 0 && d % 2 == 0 && !(t_->between(lsb(a), lsb(b)) & occupied()))
              throw PositionError("the royal pieces face each other on an open line (`royals-not-facing`)", 0);
          }
    }
    // Castling.
    castling_ = 0;
    castle_clear_.fill(0);
    castle_royal_ = p_->castling_king >= 0 && (p_->royal_types >> p_->castling_king & 1);
    chess960_ = false;
    if (f.castling != "-" && !f.castling.empty()) {
      if (!p_->castling)
        throw PositionError("this variant has no castling; the castling field must be `-`", 0);
      char royal = p_->letters[p_->castling_king];
      std::vector<CastlingRight> rights;
      try {
        rights = resolve_castling(f, royal, p_->castling_rooks, p_->castling_rank);
      } catch (const PositionError& e) {
        size_t base = 0;
        for (int spaces = 0; base < text.size() && spaces < 2; ++base)
          if (text[base] == ' ') ++spaces;
        throw PositionError(e.what(), base + e.column);
      }
      for (const auto& r : rights) {
        int c = r.color == Color::White ? 0 : 1;
        if (!p_->castles[c])
          throw PositionError(std::string(c == 0 ? "White" : "Black") + "'s army `" + p_->army[c] +
                                  "` does not castle; its castling rights must be absent",
                              0);
        int rank = c == 0 ? p_->castling_rank - 1 : p_->height - p_->castling_rank;
        // The castling king on the home rank (with several royal types, not just any royal
        // piece: coregal's queen does not castle).
        int k = castle_royal_ && !multi_royal_ ? royal_square(c) : -1;
        if (k < 0)
          for (BB b = pieces(c, p_->castling_king); b && k < 0; clear_lsb(b))
            if (lsb(b) / p_->width == rank) k = lsb(b);
        if (k < 0) throw PositionError("a castling right without a castling king on the home rank", 0);
        int side = r.rook_file > k % p_->width ? 0 : 1;
        int idx = c * 2 + side;
        if (castling_ & (1 << idx))
          throw PositionError("two castling rights on the same side of the king", 0);
        castling_ |= static_cast<uint8_t>(1 << idx);
        rook_sq_[idx] = rank * p_->width + r.rook_file;
        castle_from_[idx] = k;
        {
          int kto, rto, rsq = rook_sq_[idx];
          castle_targets(side == 0 ? kCastleK : kCastleQ, c, kto, rto);
          castle_path_[idx] = t_->between(k, kto) | bit(kto);
          castle_need_[idx] = (castle_path_[idx] | t_->between(rsq, rto) | bit(rto)) & ~bit(k) & ~bit(rsq);
        }
        castle_clear_[rook_sq_[idx]] |= static_cast<uint8_t>(1 << idx);
        castle_clear_[k] |= static_cast<uint8_t>(1 << idx);
        if (k % p_->width != p_->width / 2 || (r.rook_file != 0 && r.rook_file != p_->width - 1))
          chess960_ = true;
      }
    }
    // En passant: kept only when a capture there is legal.
    ep_ = ep_victim_ = -1;
    if (f.ep && !f.ep_more.empty()) {
      read_ep_path(f, text);
    } else if (f.ep) {
      const int passed = (f.ep->y - 1) * p_->width + f.ep->x;
      const std::vector<int> victims = ep_victims_from_text(passed);
      // In a game without double steps (makruk's pawns never make one) an en-passant
      // square is not a position of the game: refused, not ignored, since a reader that
      // honours it (Fairy-Stockfish) would play another game. Where double steps exist, a
      // square no step fits is ignored, as the chess references do.
      if (victims.empty() && !has_double_step()) {
        size_t base = 0;
        for (int spaces = 0; base < text.size() && spaces < 3; ++base)
          if (text[base] == ' ') ++spaces;
        throw PositionError("en-passant square " + std::string(1, static_cast<char>('a' + f.ep->x)) +
                                std::to_string(f.ep->y) + ": no piece of this game makes a double step",
                            base);
      }
      for (int victim : victims) {
        side_ ^= 1;  // set_ep_if_capturable looks from the side that just moved
        set_ep_if_capturable(passed, victim);
        side_ ^= 1;
        if (ep_ >= 0) break;
      }
    }
    hash_ = full_hash();
    turn_phase_ = p_->turn.size() == 2 && p_->turn[1].kind == PhaseKind::RoyalMove;
    royal_phase_ = turn_phase_ || p_->king_turn[0] || p_->king_turn[1];
    pending_passed_ = pending_victim_ = -1;
    stack_.clear();
    history_.clear();
    history_.push_back(hash_);
  }

  // The pawns an en-passant square read from a text may take: those that may just have
  // made a double step over `passed` (its last square passed, as make() records it). The
  // double step's geometry decides, not a fixed direction: a Berolina pawn's diagonal
  // double step f7-d5 passes e6 and its victim stands on d5. A step fits when the mover's
  // piece stands on its target, the passed square is empty and so is the origin (Chess 2,
  // RULINGS 4.12: a king-turn may since have occupied it; the right stays). When several
  // fit (d7-f5 and f7-d5 both pass e6) the text cannot tell them apart: the first in board
  // order whose capture is legal is taken.
  bool has_double_step() const {
    for (int t = 0; t < p_->ntypes; ++t)
      for (int c = 0; c < 2; ++c)
        if (!p_->types[t].lame[c].empty()) return true;
    return false;
  }

  std::vector<int> ep_victims_from_text(int passed) const {
    std::vector<int> out;
    if (passed < 0 || passed >= p_->squares || board_[passed] >= 0) return out;
    const int mover = side_ ^ 1;
    for (int origin = 0; origin < p_->squares; ++origin) {
      if (board_[origin] >= 0 && !rich_) continue;
      for (int t = 0; t < p_->ntypes; ++t)
        for (const auto& l : t_->pieces[t].initial_lame[mover][origin]) {
          if (!l.path) continue;
          const int over = mover == 0 ? msb(l.path) : lsb(l.path);
          if (over == passed && board_[l.to] == t * 2 + mover) out.push_back(l.to);
        }
    }
    return out;
  }

  void check_material(std::string_view text) {
    // The start's counts per side and type (board and reserve).
    FenFields start = parse_fen(p_->start_text, p_->width, p_->height, p_->letters + lower_letters());
    int init[2][kMaxTypes] = {};
    auto count_letter = [&](char ch, int(*n)[kMaxTypes]) {
      int c = std::islower(static_cast<unsigned char>(ch)) ? 1 : 0;
      size_t t = p_->letters.find(static_cast<char>(std::toupper(static_cast<unsigned char>(ch))));
      if (t != std::string::npos) ++n[c][t];
    };
    for (char ch : start.cells)
      if (ch) count_letter(ch, init);
    for (char ch : start.reserve) count_letter(ch, init);
    for (int c = 0; c < 2; ++c) {
      int missing_promoters = 0, extra = 0;
      for (int t = 0; t < p_->ntypes; ++t) {
        // A reserve only ever loses pieces: it never holds more than the start gave it.
        if (reserve_[c][t] > init[c][t])
          throw PositionError(std::string(c ? "Black" : "White") + "'s reserve holds more " + p_->letters[t] +
                                  " than a side starts with",
                              text.find('[') == std::string_view::npos ? 0 : text.find('['));
        int have = popcount(pieces(c, t)) + reserve_[c][t];
        if (!p_->types[t].promote_to.empty()) {
          if (have > init[c][t])
            throw PositionError(
                std::string(c ? "Black" : "White") + " has more " + p_->letters[t] + " than its set holds",
                text.find('[') == std::string_view::npos ? 0 : text.find('['));
          missing_promoters += init[c][t] - have;
        } else if (have > init[c][t]) {
          bool promotable = false;
          for (const auto& pp : p_->types)
            if (pp.promote_to.find(static_cast<char>(t)) != std::string::npos) promotable = true;
          if (!promotable)
            throw PositionError(
                std::string(c ? "Black" : "White") + " has more " + p_->letters[t] + " than its set holds",
                text.find('[') == std::string_view::npos ? 0 : text.find('['));
          extra += have - init[c][t];
        }
      }
      if (extra > missing_promoters)
        throw PositionError(std::string(c ? "Black" : "White") +
                                " has more pieces than its set and its promotions can account for",
                            text.find('[') == std::string_view::npos ? 0 : text.find('['));
    }
  }
// clang-format on
