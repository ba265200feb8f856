// One piece type's program and its capture rules.
//
// A part of the body of class Compiler (compile.cpp includes it inside the class, in
// this place): member functions moved out of compile.cpp unchanged. Not a standalone
// header; include it nowhere else. clang-format would unindent it: it is formatted as
// part of the class.
// clang-format off

  void piece(Program& p, int t) {
    const PieceDef& def = m_.pieces[used_[t]];
    PieceProgram& pp = p.types[t];
    pp.letter = def.letter;
    pp.royal = def.royal;
    if (def.royal) {
      if (p.royal_type < 0) p.royal_type = t;
      p.royal_types |= 1u << t;
    }
    // The dead-position rule's classes, by movement (the moves the Betza texts make, in
    // whatever spelling) and only for pieces with no other construct (end(): `insufficient`).
    if (plain_piece(def)) {
      pp.minor_bishop = same_movement(def, "B");
      pp.minor_knight = same_movement(def, "N");
    }
    const ConstructUse* black_moves = def.find(ConstructId::BlackMoves);
    // Black's file steps: the piece's `black-moves`, else the ruleset's `orientation`.
    const bool rotated = black_moves ? black_moves->arg("").text == "rotated" : black_rotated_;
    for (const BetzaText& bt : def.betza) {
      std::vector<BetzaMove> moves;
      BetzaError err;
      if (!parse_betza(bt.text, moves, err)) continue;  // reported by sema
      if (!betza_executable(bt, moves, /*bitboard=*/true)) return;
      for (const BetzaMove& mv : moves) {
        for (int c = 0; c < 2; ++c) {
          int dy = c == 0 ? mv.dy : -mv.dy;
          int dx = c == 1 && rotated ? -mv.dx : mv.dx;  // `black-moves`, else `orientation`
          if (mv.unsupported == "d") {
            // Betza `d` (RULINGS 4.10's wild horse): the leap removes an own piece.
            pp.own_leaps[c].push_back({dx, dy, false, true, false});
            continue;
          }
          if (mv.hop) {
            // Hoppers (issue 24): the cannon `p` and the grasshopper `g`, on unlimited riders.
            if (mv.range != 0 || mv.initial || mv.lame || mv.en_passant) {
              d_.error(bt.loc, std::string("Betza `") + mv.hop +
                                   "` runs on unlimited riders without `i`, `n`, `e` (`pR`, `mRcpR`, `gQ`, "
                                   "`pNN`); this form is not executable yet");
              return;
            }
            pp.paths[c].push_back({dx, dy, 0, mv.can_move, mv.can_capture, mv.hop, false});
            continue;
          }
          if (mv.range != 1 && unit_dir(dx, dy) < 0) {
            // Any other rider (issue 24): the nightrider `NN`, `N2`, `AA`, `CC`...
            if (mv.initial || mv.lame || mv.en_passant) {
              d_.error(bt.loc, "`i`, `n` and `e` on riders are not executable yet");
              return;
            }
            pp.paths[c].push_back({dx, dy, mv.range, mv.can_move, mv.can_capture, 0, false});
            continue;
          }
          if (mv.lame && !mv.initial) {
            // A lame leap (the xiangqi horse `nN`, the elephant `nA`, `nD`).
            if (mv.en_passant) {
              d_.error(bt.loc, "`e` on a lame leap is not executable yet");
              return;
            }
            pp.paths[c].push_back({dx, dy, 1, mv.can_move, mv.can_capture, 0, true});
            continue;
          }
          if (mv.range != 1) {
            int d = unit_dir(dx, dy);
            if (mv.initial || mv.lame || mv.en_passant) {
              d_.error(bt.loc, "`i`, `n` and `e` on riders are not executable yet");
              return;
            }
            if (mv.range != 0) {
              // A limited rider (`mW3`, `mF2`): the Chess 2 loop runs it.
              pp.limited[c].push_back({d, mv.range, mv.can_move, mv.can_capture});
              continue;
            }
            if (mv.can_move) pp.ride_move[c] |= uint8_t(1u << d);
            if (mv.can_capture) pp.ride_capture[c] |= uint8_t(1u << d);
            continue;
          }
          if (mv.lame || mv.initial) {
            if (!(mv.initial && mv.can_move && !mv.can_capture)) {
              d_.error(bt.loc, "`i` is executable on a move-only leap, lame or not (`ifmnD`, `imA`)");
              return;
            }
            if (!def.initial_ranks) {
              d_.error(bt.loc, "`i` needs `initial ranks ...` in the piece's block");
              return;
            }
            pp.lame[c].push_back({dx, dy, ranks(p, c, *def.initial_ranks), !mv.lame});
            continue;
          }
          pp.leaps[c].push_back({dx, dy, mv.can_move, mv.can_capture, mv.en_passant});
        }
      }
    }
    capture_rules(p, def, pp);
    region_constructs(def, pp);
    if (const ConstructUse* u = def.find(ConstructId::PromoteZone)) promote_zone(p, def, *u, pp);
    if (const ConstructUse* u = def.find(ConstructId::Demotes)) {
      // shogi2: the zone as promotes-to's; the type it turns back into is set by
      // compile_flips() once the hands know which type promotes to it.
      if (def.find(ConstructId::PromoteZone) || def.promote_ranks)
        d_.error(u->loc, "`demotes` and a promotion on one piece: a promoted type only turns back");
      pp.promote_region = region_of(u->arg("in").text);
      pp.promote_leaving = true;
      pp.promote_optional = false;
      pp.promote_capturing = u->has("capturing");
      pp.must_promote = false;
      pp.demotes = true;
    }
    if (pp.rampage.reach > 0) {
      // The rampage runs along the directions of the piece's rides.
      for (int c = 0; c < 2; ++c) {
        pp.rampage.dirs[c] = pp.ride_move[c];
        for (const PieceProgram::Line& l : pp.limited[c])
          if (l.move) pp.rampage.dirs[c] |= uint8_t(1u << l.d);
      }
      if (!pp.rampage.dirs[0])
        d_.error(def.loc, "`rampage` needs a riding move (`mW3`) giving its directions");
    }
    if (def.forbidden_ranks)
      for (int c = 0; c < 2; ++c) pp.forbidden_zone[c] = ranks(p, c, *def.forbidden_ranks);
    // A pawn's moves reset the fifty-move count: a piece that promotes, or one named
    // `pawn` (No Stress Chess's pawn at levels 1-3 does not promote).
    if (def.name == "pawn") pp.resets_clock = true;
    if (def.promote_ranks) {
      pp.resets_clock = true;
      for (int c = 0; c < 2; ++c) pp.promote_zone[c] = ranks(p, c, *def.promote_ranks);
      for (char l : def.promote_to) {
        // A piece outside the compiled armies is no choice (the army's `promote-to` rules).
        size_t idx = p.letters.find(l);
        if (idx != std::string::npos) pp.promote_to.push_back(static_cast<char>(idx));
      }
      pp.promote_choices = {pp.promote_to, pp.promote_to};
      // `promote ... for white|black`: that colour's own choices.
      for (int c = 0; c < 2; ++c) {
        if (!def.promote_colour_set[c]) continue;
        pp.promote_choices[c].clear();
        for (char l : def.promote_to_colour[c])
          if (size_t idx = p.letters.find(l); idx != std::string::npos)
            pp.promote_choices[c].push_back(static_cast<char>(idx));
      }
    }
    // `resets-clock never|irreversible` (Fairy-Stockfish's nMoveRuleTypes): which of its moves
    // do; a capture, a drop and a promotion still do (gen_make.hpp).
    if (const ConstructUse* u = def.find(ConstructId::ResetsClock)) {
      pp.resets_clock = u->arg("").text == "irreversible";
      pp.clock_irreversible = pp.resets_clock;
    }
  }

  // `captures`, `captured-by`, `immune`, `no-check`, `teleport`, `region-move`.
  void capture_rules(Program& p, const PieceDef& def, PieceProgram& pp) {
    using T = PieceProgram::Targets;
    using Removal = PieceProgram::Removal;
    auto targets = [](const std::string& w) {
      return w == "royal" ? T::Royal : w == "non-royal" ? T::NonRoyal : w == "none" ? T::None : T::Any;
    };
    for (const ConstructUse& u : def.constructs) {
      switch (u.id) {
        case ConstructId::Captures:
          pp.captures = targets(u.arg("").text);
          break;
        case ConstructId::CapturedBy:
          pp.captured_by = targets(u.arg("").text);
          if (u.has("within")) pp.captured_within = static_cast<int>(u.arg("within").num);
          break;
        case ConstructId::RemoveAround: {
          const bool on_capture = u.arg("when").text == "capture";
          pp.around.trigger = on_capture ? Removal::Trigger::Capture : Removal::Trigger::Action;
          pp.around.victims = Removal::Victims::Around;
          pp.around.reach = static_cast<int>(u.arg("radius").num);
          pp.around.self = u.has("self");
          // A whirlwind that removes its own piece, an explosion that counts its victims or
          // looks at the own royal piece: no game asks for them yet.
          if (pp.around.self && !on_capture)
            d_.error(u.arg("self").loc,
                     "`remove-around ... when action self` is not executable yet by the bitboard back end",
                     "`self` runs with `when capture` (an explosion)");
          if (on_capture && u.has("at-least"))
            d_.error(
                u.arg("at-least").loc,
                "`remove-around ... when capture at-least` is not executable yet by the bitboard back end",
                "`at-least` runs with `when action` (a whirlwind)");
          if (on_capture && u.has("not-beside"))
            d_.error(
                u.arg("not-beside").loc,
                "`remove-around ... when capture not-beside` is not executable yet by the bitboard back end",
                "`not-beside` runs with `when action` (a whirlwind)");
          if (u.has("at-least")) pp.around.at_least = static_cast<int>(u.arg("at-least").num);
          if (u.has("spare"))
            for (const std::string& w : u.arg("spare").words) {
              size_t t = p.letters.find(w[0]);
              if (t != std::string::npos) pp.around.kept |= 1u << t;
            }
          pp.around.not_beside_own_royal = u.has("not-beside");
          break;
        }
        case ConstructId::Strike: {
          std::vector<BetzaMove> moves;
          BetzaError err;
          if (!parse_betza(u.arg("").text, moves, err)) break;
          for (const BetzaMove& mv : moves) {
            const int d = unit_dir(mv.dx / std::max(std::abs(mv.dx), std::abs(mv.dy)),
                                   mv.dy / std::max(std::abs(mv.dx), std::abs(mv.dy)));
            const bool straight = mv.dx == 0 || mv.dy == 0 || std::abs(mv.dx) == std::abs(mv.dy);
            if (!straight || d < 0 || (mv.range == 1 && std::max(std::abs(mv.dx), std::abs(mv.dy)) != 1) ||
                mv.initial || mv.lame || mv.en_passant || mv.hop || !mv.unsupported.empty()) {
              d_.error(u.arg("").loc, "`strike` runs W and F lines (`cF2`, `cW`, `cR`)");
              break;
            }
            for (int c = 0; c < 2; ++c) {
              const int cd = unit_dir(black_dx(c, kDirDx[d]), c == 0 ? kDirDy[d] : -kDirDy[d]);
              pp.strike.lines[c].push_back({cd, mv.range, false, true});
            }
          }
          if (!pp.strike.lines[0].empty()) {
            pp.strike.trigger = Removal::Trigger::Action;
            pp.strike.victims = Removal::Victims::Line;
          }
          break;
        }
        case ConstructId::Rampage: {
          pp.rampage.trigger = Removal::Trigger::Move;
          pp.rampage.victims = Removal::Victims::Path;
          pp.rampage.reach = static_cast<int>(u.arg("range").num);
          if (u.has("blocked-by"))
            for (const std::string& w : u.arg("blocked-by").words) {
              if (w == "own-royal") {
                pp.rampage.blocked_own_royal = true;
              } else if (w == "immune") {
                pp.rampage.blocked_immune = true;
              } else {
                size_t t = p.letters.find(w[0]);
                if (t != std::string::npos) pp.rampage.blocked_types |= 1u << t;  // outside the armies: none
              }
            }
          if (u.has("enemy-self-beyond"))
            pp.rampage.self_beyond = static_cast<int>(u.arg("enemy-self-beyond").num);
          break;
        }
        case ConstructId::Immune:
          pp.immune = true;
          break;
        case ConstructId::NoCheck:
          pp.gives_check = false;
          break;
        case ConstructId::EnPassantRanks:
          for (int c = 0; c < 2; ++c)
            pp.ep_zone[c] = ranks(p, c, Range{u.arg("ranks").lo, u.arg("ranks").hi});
          break;
        case ConstructId::EnPassantField:
          pp.ep_marks_path = true;
          break;
        case ConstructId::ResetsClock:  // read in piece(), after the promotion
          break;
        case ConstructId::PromotionSquares:
          if (!def.promote_ranks)
            d_.error(u.loc, "`promotion-squares` narrows a `promote on rank ... to ...` of the same piece",
                     "e.g. `promote on rank 5..8 to Q R B N` and `promotion-squares legan-zone`");
          pp.promote_within = region_of(u.arg("").text);
          break;
        case ConstructId::BlackMoves:  // read with the Betza text (piece())
          break;
        case ConstructId::PromotionOptional:
          if (!def.promote_ranks)
            d_.error(u.loc,
                     "`promotion optional` makes a `promote on rank ... to ...` of the same piece optional",
                     "e.g. `promote on rank 8..10 to Q R B N` and `promotion optional`");
          pp.promote_optional = true;  // gen_pawns: the tables mark where it would stand immobile
          pp.must_promote = false;
          break;
        case ConstructId::PromotionLimit:
          pp.promotion_limit = static_cast<int>(u.arg("").num);
          break;
        case ConstructId::Teleport:
          pp.teleport_move = u.has("move");
          pp.teleport_capture = u.has("capture");
          if (!pp.teleport_move && !pp.teleport_capture)
            d_.error(u.loc, "`teleport` needs `move`, `capture` or both");
          if (u.has("except"))
            for (const std::string& w : u.arg("except").words) {
              if (w.size() == 1) {
                d_.error(u.arg("except").loc, "`teleport except` takes regions, not piece letters");
                continue;
              }
              for (int c = 0; c < 2; ++c)
                pp.teleport_except[c] |=
                    ranks(p, c, w == "enemy-back-rank" ? Range{p.height, p.height} : Range{1, 1});
            }
          break;
        case ConstructId::Borrows: {
          for (const std::string& w : u.arg("").words) {
            size_t t = p.letters.find(w[0]);
            if (t != std::string::npos) pp.borrows |= 1u << t;  // a type outside the armies lends nothing
          }
          // Its own type lends it nothing new: one program with or without it.
          pp.borrows &= ~(1u << (&pp - p.types.data()));
          const std::string& from = u.arg("from").text;
          for (int d = 0; d < 8; ++d)
            if (from == "adjacent" || (from == "orthogonal") == (d % 2 == 0))
              pp.borrow_dirs |= uint8_t(1u << d);
          if (pp.borrows)
            p.borrowing = true;
          else
            pp.borrow_dirs = 0;
          break;
        }
        case ConstructId::RegionMove: {
          std::vector<BetzaMove> moves;
          BetzaError err;
          if (!parse_betza(u.arg("").text, moves, err)) break;
          for (const BetzaMove& mv : moves) {
            if (mv.range != 1 || mv.initial || mv.lame || mv.can_capture || mv.hop ||
                !mv.unsupported.empty()) {
              d_.error(u.arg("").loc, "`region-move` runs single non-capturing leaps (`mK`, `mW`, ...)");
              break;
            }
            for (int c = 0; c < 2; ++c)
              pp.region_leaps[c].push_back({black_dx(c, mv.dx), c == 0 ? mv.dy : -mv.dy, true, false, false});
          }
          break;
        }
        default:
          break;
      }
    }
    // A piece without any capturing move captures nothing, whatever `captures` says (the
    // ghost): one program for both, so a mutant of the word is equivalent by construction.
    bool captures_at_all = pp.teleport_capture || pp.borrows || pp.ride_capture[0] || pp.ride_capture[1];
    for (int c = 0; c < 2; ++c)
      for (const PieceProgram::Leap& l : pp.leaps[c]) captures_at_all = captures_at_all || l.capture;
    captures_at_all =
        captures_at_all || !pp.strike.lines[0].empty() || pp.rampage.reach > 0 || pp.whirlwind();
    for (const PieceProgram::Line& l : pp.limited[0]) captures_at_all = captures_at_all || l.capture;
    for (const PieceProgram::Path& w : pp.paths[0]) captures_at_all = captures_at_all || w.capture;
    if (!captures_at_all) pp.captures = T::None;
    if (pp.captures == T::NonRoyal || pp.captures == T::None) pp.gives_check = false;
    if (pp.captures != T::Any || pp.captured_by != T::Any || pp.immune) p.capture_rules = true;
  }
// clang-format on
