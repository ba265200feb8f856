// The grid back end's program, and the game's rules.
//
// A part of the body of class Compiler (compile.cpp includes it inside the class, in
// this place): member functions moved out of compile.cpp unchanged. Not a standalone
// header; include it nowhere else. clang-format would unindent it: it is formatted as
// part of the class.
// clang-format off

  // The unbounded grid: pieces become move vectors; the turn is ChessMe's phase sequence.
  void grid(Program& p) {
    auto g = std::make_shared<GridProgram>();
    p.width = p.height = 0;
    p.squares = 0;
    p.ntypes = static_cast<int>(m_.pieces.size());
    for (const PieceDef& def : m_.pieces) p.letters.push_back(def.letter);
    for (int t = 0; t < p.ntypes; ++t) {
      const PieceDef& def = m_.pieces[t];
      GridPiece gp;
      gp.letter = def.letter;
      gp.royal = def.royal;
      gp.is_pawn = def.name == "pawn";
      gp.promote_exchange = def.promote_exchange;
      if (def.royal) {
        if (g->royal_type >= 0) d_.error(def.loc, "more than one royal piece type is not executable yet");
        g->royal_type = t;
      }
      if (gp.is_pawn) g->pawn_type = t;
      if (def.promote_ranks) d_.error(def.promote_loc, "promotion on fixed ranks needs a bounded board");
      if (def.forbidden_ranks) d_.error(def.forbidden_loc, "forbidden ranks need a bounded board");
      if (def.promote_exchange && !def.promote_exchange_optional)
        d_.error(def.promote_loc,
                 "a mandatory promotion by exchange is not executable yet (write `optional`)");
      for (const BetzaText& bt : def.betza) {
        std::vector<BetzaMove> moves;
        BetzaError err;
        if (!parse_betza(bt.text, moves, err)) continue;
        if (!betza_executable(bt, moves)) break;
        for (const BetzaMove& mv : moves) {
          if (mv.initial || mv.lame || mv.en_passant) {
            d_.error(bt.loc, "`i`, `n` and `e` are not executable on the unbounded grid yet");
            break;
          }
          if (mv.range != 1 && (unit_dir(mv.dx, mv.dy) < 0 || mv.range != 0)) {
            d_.error(bt.loc, "riders other than unlimited W and F riders are not executable yet");
            break;
          }
          for (int c = 0; c < 2; ++c) {
            GridMove gm{mv.dx, c == 0 ? mv.dy : -mv.dy, mv.range != 1, mv.can_move, mv.can_capture};
            gp.moves[c].push_back(gm);
            if (!gm.can_capture) continue;
            if (gm.rider) {
              gp.ride_capture[c] |= static_cast<uint8_t>(1u << unit_dir(gm.dx, gm.dy));
            } else if (std::abs(gm.dx) <= 3 && std::abs(gm.dy) <= 3) {
              gp.leap_capture[c][gm.dx + 3][gm.dy + 3] = true;
            } else {
              d_.error(bt.loc, "leaps longer than 3 squares are not executable on the unbounded grid yet");
            }
          }
        }
      }
      if (gp.moves[0].size() > 16)
        d_.error(def.loc, "more than 16 move vectors in one piece are not executable yet");
      g->types.push_back(gp);
    }
    if (g->royal_type < 0) d_.error(m_.name_loc, "the unbounded grid needs a royal piece");
    if (!m_.adjacency_rule)
      d_.error(m_.board_loc,
               "an unbounded board without `move-condition non-capture adjacent-to any` has "
               "infinitely many moves; not executable");
    if (m_.castling) d_.error(m_.castling_loc, "castling is not executable on the unbounded grid");
    if (!m_.reserve.empty())
      d_.error(m_.reserve_loc, "reserves are not executable on the unbounded grid yet");
    // Turn (Program::turn): a mandatory move, an optional placement, a draw after the
    // placement.
    const auto& ph = p.turn;
    bool ok = !ph.empty() && ph[0].kind == PhaseKind::Move && !ph[0].optional && ph[0].after < 0;
    size_t i = 1;
    if (ok && i < ph.size() && ph[i].kind == PhaseKind::Place) {
      ok = ph[i].optional && ph[i].after < 0;
      g->place = true;
      ++i;
    }
    if (ok && i < ph.size() && ph[i].kind == PhaseKind::Draw) {
      ok = g->place && ph[i].after == static_cast<int>(i - 1);
      g->draw_after_place = true;
      ++i;
    }
    if (!ok || i != ph.size())
      d_.error(ph.empty() ? m_.turn_loc : turn_locs_[std::min(i, ph.size() - 1)],
               "on the unbounded grid the executable turn is `phase move mandatory`, `phase place optional`, "
               "`phase draw after place`");
    g->adjacency_rule = m_.adjacency_rule;
    // Hands and piles from the ruleset (RULINGS 2.3/2.4): `hand size N draw M` deals M
    // tiles at the start into a hand that holds at most N; each placement is followed by
    // one draw (if the pile holds a tile and the hand has room). The pile's tiles are
    // pieces of the ruleset other than the royal one (a placed royal would be a second).
    // A hand refills one tile per tile placed, so it never holds more than its first deal:
    // a size above the deal would change nothing, and is refused rather than ignored.
    if (m_.hand_loc.src && m_.hand_draw > m_.hand_size)
      d_.error(m_.hand_loc,
               "the hand draws " + std::to_string(m_.hand_draw) + " tiles at the start but holds at most " +
                   std::to_string(m_.hand_size),
               "write `hand size N draw N`");
    else if (m_.hand_loc.src && m_.hand_draw < m_.hand_size)
      d_.error(
          m_.hand_loc,
          "a hand of " + std::to_string(m_.hand_size) + " first dealt " + std::to_string(m_.hand_draw) +
              " tiles never holds more than " + std::to_string(m_.hand_draw) +
              " (one tile is drawn per tile placed)",
          "write `hand size " + std::to_string(m_.hand_draw) + " draw " + std::to_string(m_.hand_draw) + "`");
    if (g->place && !m_.hand_loc.src)
      d_.error(m_.turn_loc, "a placement phase needs a hand: write `hand size N draw M`");
    if (!m_.pile.empty() && !m_.hand_loc.src)
      d_.error(m_.pile_loc, "a pile needs a hand to draw into: write `hand size N draw M`");
    std::string reported;
    for (char l : m_.pile) {
      if (reported.find(l) != std::string::npos) continue;
      reported.push_back(l);
      size_t t = p.letters.find(l);
      if (t == std::string::npos) {
        d_.error(m_.pile_loc, std::string("the pile names `") + l + "`, which is no piece of this ruleset");
      } else if (static_cast<int>(t) == g->royal_type) {
        d_.error(m_.pile_loc, std::string("the pile holds the royal piece `") + l +
                                  "`; a placed royal is not executable on the unbounded grid");
      }
    }
    if (m_.pile.size() > 64)
      d_.error(m_.pile_loc, "a pile of more than 64 tiles is not executable on the unbounded grid");
    g->hand_size = m_.hand_size;
    g->hand_draw = m_.hand_draw;
    g->pile = m_.pile;
    g->pile_shuffled = m_.pile_shuffled;
    g->seed = m_.pile_seed;
    g->place_pawn_beside = m_.place_pawn_beside;
    g->place_other_behind = m_.place_other_behind;
    // Legality on the grid: exactly `royal-safe` (RULINGS 2.8 needs check and checkmate).
    if (!m_.royal_safe)
      d_.error(m_.turn_loc.src ? m_.turn_loc : m_.name_loc,
               "the unbounded grid executes only rulesets whose `legal` block holds `royal-safe`",
               "add `legal { royal-safe }`: without it a royal may be left attacked, which the grid "
               "back end cannot run yet");
    if (g->place && !m_.place_no_promotion)
      d_.error(m_.turn_loc,
               "placements that promote are not executable on the unbounded grid yet (add `no-promotion` to "
               "`placement`)");
    if (g->place && !m_.place_no_escape)
      d_.error(m_.turn_loc,
               "placements that escape check are not executable yet (add `no-escape-from-check`)");
    if (g->place && g->pawn_type < 0)
      d_.error(m_.turn_loc, "placements next to `own-pawn` need a piece named pawn");
    if (m_.setup_kind != SetupKind::Text) {
      d_.error(m_.setup_loc, "the unbounded grid needs a setup text of pieces");
    } else {
      g->setup_pieces = m_.setup_text;
      try {
        parse_chessme(m_.setup_text + " w -/- -/- -/- 1", g->tile_rules());
      } catch (const std::exception& e) {
        d_.error(m_.setup_loc, std::string("bad setup: ") + e.what());
      }
    }
    bool mate = false;
    for (const EndRule& r : m_.end) {
      if (r.condition == "checkmate" && r.result == "loss") {
        mate = true;
      } else if ((r.condition == "no-legal-move" || r.condition == "stalemate") && r.result == "draw") {
        g->no_move_reason = r.reason;
        g->no_move_end = r.condition == "stalemate" ? Termination::Stalemate : Termination::NoLegalMove;
      } else if (r.condition == "agreement") {
        // A record may end with an agreed draw; it changes no move.
      } else {
        d_.error(r.loc,
                 "end condition `" + r.condition + " -> " + r.result + "` is not executable on the grid yet");
      }
    }
    if (!mate) d_.error(m_.name_loc, "the unbounded grid needs `checkmate -> loss`");
    if (m_.claim_repetition || m_.claim_fifty)
      d_.error(m_.name_loc, "repetition and fifty-move claims are not executable on the unbounded grid yet");
    p.royal_type = g->royal_type;
    p.grid = g;
  }

  void rules(Program& p) {
    p.castling = m_.castling && (p.castles[0] || p.castles[1]);
    if (p.castling) {
      for (int t = 0; t < p.ntypes; ++t)
        if (p.letters[t] == m_.castling_rook) p.castling_rook = t;
      if (p.castling_rook < 0) d_.error(m_.castling_loc, "the castling rook is in no army that castles");
      p.castling_rooks = m_.castling_rooks;
      p.castling_rank = m_.castling_rank;
      p.castling_shredder = m_.castling_shredder;
      if (m_.castling_rank > p.height) d_.error(m_.castling_loc, "castling rank off the board");
      for (char l : m_.castling_rooks)
        if (p.letters.find(l) == std::string::npos)
          d_.error(m_.castling_loc, std::string("castling piece `") + l + "` is in no army that castles");
      p.ks_king_to = m_.ks_king_to;
      p.ks_rook_to = m_.ks_rook_to;
      p.qs_king_to = m_.qs_king_to;
      p.qs_rook_to = m_.qs_rook_to;
      p.castling_king = p.royal_type;
      if (m_.castling_king)
        for (int t = 0; t < p.ntypes; ++t)
          if (p.letters[t] == m_.castling_king) p.castling_king = t;
      if (p.castling_king < 0)
        d_.error(m_.castling_loc,
                 "castling needs a royal piece, or a castling king (`king LETTER` in the block)");
      for (int f : {p.ks_king_to, p.ks_rook_to, p.qs_king_to, p.qs_rook_to})
        if (f >= p.width) d_.error(m_.castling_loc, "castling file off the board");
      // King and rook each end on a square of their own.
      if (p.ks_king_to == p.ks_rook_to || p.qs_king_to == p.qs_rook_to)
        d_.error(m_.castling_loc, "castling puts the king and the rook on the same file",
                 "give `king-to` and `rook-to` different files on each side");
    }
    p.has_reserve = !m_.reserve.empty();
    if (m_.setup_kind == SetupKind::Empty) {
      std::string board;
      for (int y = 0; y < p.height; ++y) board += (y ? "/" : "") + std::to_string(p.width);
      std::string black;
      for (char c : m_.reserve) black.push_back(static_cast<char>(std::tolower(c)));
      p.start_text = board + (p.has_reserve ? "[" + m_.reserve + black + "]" : "") + " w - - 0 1";
    } else {
      p.start_text = m_.setup_text;
      if (m_.setup_kind == SetupKind::Chess960) {
        p.chess960_setup = true;
        if (p.start_text.empty())
          d_.error(m_.setup_loc, "`setup chess960` needs `default \"POSITION\"` on the bitboard back end");
      }
    }
    if (p.royal_type >= 0 && m_.setup_kind != SetupKind::Chess960 && p.army[0].empty()) {
      // The colours the start gives no royal piece (board and reserve, before the fields).
      const std::string placement = p.start_text.substr(0, p.start_text.find(' '));
      const char royal = p.letters[static_cast<size_t>(p.royal_type)];
      for (int c = 0; c < 2; ++c)
        p.no_royal[c] =
            placement.find(c == 0 ? royal : static_cast<char>(std::tolower(royal))) == std::string::npos;
      if (p.no_royal[0] && p.no_royal[1]) p.no_royal = {false, false};  // an empty start: set up later
    }
    p.action_move = m_.action_move;
    p.action_place = m_.action_place;
    if (p.action_place) {
      Range r = m_.place_ranks.value_or(Range{1, p.height});
      for (int c = 0; c < 2; ++c) p.place_zone[c] = ranks(p, c, r);
    }
    p.place_first_royal = m_.place_first_royal;
    p.royal_safe = m_.royal_safe;
    p.royals_apart = m_.royals_apart;
    p.royals_not_facing = m_.royals_not_facing;
    p.duple_check = m_.duple_check;
    p.no_check_given = m_.no_check_given;
    p.stalemate_draw = false;
    p.checkmate_loses = false;
    const EndRule* insufficient = nullptr;
    bool checkmate_stated = false, stalemate_stated = false;
    auto value_of = [](const std::string& result) -> int8_t {
      return result == "win" ? 1 : result == "loss" ? -1 : 0;
    };
    for (const EndRule& r : m_.end) {
      if (r.condition == "checkmate" && (r.result == "loss" || r.result == "win" || r.result == "draw")) {
        p.checkmate_loses = r.result == "loss";
        p.checkmate_value = value_of(r.result);
        checkmate_stated = true;
      } else if (r.condition == "stalemate") {
        p.stalemate_draw = r.result == "draw" && r.when.empty();
        p.stalemate_value = value_of(r.result);
        p.stalemate_by_count = r.when == "fewer-pieces";
        stalemate_stated = true;
      } else if (r.condition == "no-legal-move" && r.result == "loss") {
        p.no_move_loses = true;
      } else if (r.condition == "region-reached" && r.result == "win") {
        // sema admits `royal|LETTER REGION [unless-answered|safe]`
        p.invasion = true;
        p.invasion_reason = r.reason;
        const size_t first = r.args[0] == "any" ? 1 : 0;
        const std::string& who = r.args[first];
        p.flag_any = first == 1;
        p.flag_region = region_of(r.args[first + 1]);
        p.flag_answer = r.args.size() == first + 3 && r.args[first + 2] == "unless-answered";
        p.flag_safe = r.args.size() == first + 3 && r.args[first + 2] == "safe";
        p.flag_held = r.args.size() == first + 3 && r.args[first + 2] == "held";
        if (who == "royal") {
          p.flag_types = p.royal_types;
          if (p.royal_type < 0) d_.error(r.loc, "`region-reached royal` needs a royal piece");
        } else if (size_t t = p.letters.find(who[0]); t != std::string::npos) {
          p.flag_types = 1u << t;
        } else {
          d_.error(r.loc, "`region-reached " + who + "`: no piece `" + who + "` in this ruleset");
        }
      } else if (r.condition == "insufficient-material" && r.result == "draw") {
        insufficient = &r;
      } else if (r.condition == "royal-capture" && r.result == "win") {
        // The card layer: a lost turn may leave a royal piece to capture. The bitboard
        // generator: a capture or an explosion removing an enemy royal piece wins.
        p.royal_capture = true;
        if (p.royal_type < 0) d_.error(r.loc, "`royal-capture -> win` needs a royal piece");
      } else {
        d_.error(r.loc, "end condition `" + r.condition + " -> " + r.result + "` is not executable yet");
      }
    }
    if (insufficient) {
      std::string why = dead_position_undecided(p);
      if (why.empty()) {
        p.insufficient_draw = true;
        p.insufficient_needs_empty_reserves = insufficient->when == "reserves-empty";
      } else {
        d_.warning(
            insufficient->loc,
            "`insufficient-material -> draw` is not decided for this ruleset: " + why +
                "; no position is declared dead",
            "the dead-position rule is proved for one royal piece a side that moves as a chess king, "
            "checkmate as the only loss, and knights and bishops (lang/README.md, \"End conditions\")");
      }
    }
    if (m_.deck_loc.src) {
      // The card layer: without royal-safe the game ends only by capturing the royal; with
      // it, checkmate and stalemate are judged too (card_generator.cpp).
      if (!p.royal_capture)
        d_.error(m_.deck_loc, "a card deck needs `royal-capture -> win` in the `end` block");
      for (const ConstructUse& u : m_.constructs)
        if (u.id == ConstructId::EndCheckmateBy)
          d_.error(u.loc, "`checkmate-by` is not executable yet by the card layer");
      if (p.royal_safe && (!p.checkmate_loses || !p.stalemate_draw))
        d_.error(m_.name_loc,
                 "a card game with `royal-safe` needs `checkmate -> loss` and `stalemate -> draw`");
      p.claim_repetition = m_.claim_repetition.value_or(0);
      p.claim_fifty = m_.claim_fifty.value_or(0);
      return;
    }
    counted_ends(p);
    if (!checkmate_stated && p.royal_type >= 0)
      d_.error(m_.name_loc, "a royal piece without `checkmate -> loss` (or `-> win`, `-> draw`) is not executable yet");
    // The bitboard generator ends every position without a legal action: in check by
    // checkmate, otherwise by stalemate. A ruleset must say what the second one is.
    if (!stalemate_stated && !p.no_move_loses)
      d_.error(m_.name_loc,
               "a position without a legal action that is not check has no end rule: not executable yet by "
               "the bitboard back end",
               "add `stalemate -> draw` or `no-legal-move -> loss` to the `end` block");
    if (stalemate_stated && p.no_move_loses)
      d_.error(m_.name_loc,
               "both `stalemate -> draw` and `no-legal-move -> loss`: a position without a legal "
               "action that is not check cannot be both");
    if (p.chess960_setup && !d_.has_errors()) {
      try {
        p.start_text = program_start(p, -1);
      } catch (const PositionError& e) {
        d_.error(m_.setup_loc, std::string("bad setup: ") + e.what());
      }
    }
    p.claim_repetition = m_.claim_repetition.value_or(0);
    p.claim_fifty = m_.claim_fifty.value_or(0);
  }
// clang-format on
