// The blocks' statements: piece, castling, setup, turn, records, end, expect, army.
//
// A part of the body of class Checker (sema.cpp includes it inside the class, in this
// place): member functions moved out of sema.cpp unchanged. Not a standalone header;
// include it nowhere else. clang-format would unindent it: it is formatted as part of
// the class.
// clang-format off

  // ---- piece block ----
  void betza_stmt(const Stmt& c) {
    PieceDef& p = *piece_;
    if (!want_args(c, 1, 1, "\"BETZA\"")) return;
    std::vector<BetzaMove> moves;
    BetzaError err;
    if (!parse_betza(c.args[0].text, moves, err)) {
      Loc l = c.args[0].loc;
      l.col += 1 + static_cast<int>(err.offset);
      l.len = 1;
      d_.error(l, err.message);
      return;
    }
    p.betza.push_back({c.args[0].text, c.args[0].loc});
    p.constructs.push_back(ConstructUse{ConstructId::Betza, c.loc, {}, group_});
  }
  void royal_stmt(const Stmt& c) {
    no_block(c);
    piece_->royal = true;
    piece_->constructs.push_back(ConstructUse{ConstructId::Royal, c.loc, {}, group_});
  }
  void initial_stmt(const Stmt& c) {
    PieceDef& p = *piece_;
    p.constructs.push_back(ConstructUse{ConstructId::Initial, c.loc, {}, group_});
    if (want_args(c, 2, 2, "ranks RANKS") && c.args[0].is("ranks")) {
      p.initial_ranks = ranks(c.args[1]);
    } else if (!c.args.empty() && !c.args[0].is("ranks")) {
      d_.error(c.args[0].loc, "expected `ranks`");
    }
  }
  void forbidden_stmt(const Stmt& c) {
    PieceDef& p = *piece_;
    p.forbidden_loc = c.loc;
    p.constructs.push_back(ConstructUse{ConstructId::Forbidden, c.loc, {}, group_});
    if (want_args(c, 2, 2, "ranks RANKS") && c.args[0].is("ranks")) {
      p.forbidden_ranks = ranks(c.args[1]);
    } else if (!c.args.empty() && !c.args[0].is("ranks")) {
      d_.error(c.args[0].loc, "expected `ranks`");
    }
  }
  void promote_stmt(const Stmt& c) {
    PieceDef& p = *piece_;
    p.promote_loc = c.loc;
    if (c.args.size() >= 3 && c.args[0].is("on") && c.args[1].is("rank")) {
      p.constructs.push_back(ConstructUse{ConstructId::PromoteOnRank, c.loc, {}, group_});
      p.promote_ranks = ranks(c.args[2]);
      if (c.args.size() < 5 || !c.args[3].is("to")) {
        d_.error(c.loc, "`promote on rank N` needs `to LETTERS`", "e.g. `promote on rank 8 to Q R B N`");
        return;
      }
      // `... to LETTERS [for white|black]`: without `for` the choices of both colours.
      size_t end = c.args.size();
      int colour = -1;
      if (end >= 7 && c.args[end - 2].is("for")) {
        if (c.args[end - 1].is("white"))
          colour = 0;
        else if (c.args[end - 1].is("black"))
          colour = 1;
        else
          d_.error(c.args[end - 1].loc, "expected `white` or `black`, found `" + c.args[end - 1].text + "`",
                   "write `promote on rank 8 to Q R B N for black`");
        end -= 2;
      }
      std::string to;
      for (size_t i = 4; i < end; ++i) {
        char l;
        if (piece_letter(c.args[i], l)) to.push_back(l);
      }
      if (colour < 0) {
        p.promote_to = to;
      } else {
        p.promote_to_colour[colour] = to;
        p.promote_colour_set[colour] = true;
        for (char l : to)
          if (p.promote_to.find(l) == std::string::npos) p.promote_to.push_back(l);
      }
    } else if (c.args.size() >= 2 && c.args[0].is("on") && c.args[1].is("enemy-royal-rank")) {
      bool by_exchange = false, from_captured = false;
      for (size_t i = 2; i < c.args.size(); ++i) {
        const Value& v = c.args[i];
        if (v.is("by-exchange"))
          by_exchange = true;
        else if (v.is("optional"))
          p.promote_exchange_optional = true;
        else if (v.is("from") && i + 1 < c.args.size() && c.args[i + 1].is("captured"))
          from_captured = true, ++i;
        else
          d_.error(v.loc, "unexpected `" + v.text + "`",
                   "write `promote on enemy-royal-rank by-exchange from captured [optional]`");
      }
      if (!by_exchange || !from_captured)
        d_.error(c.loc, "promotion on the enemy royal's rank is by exchange for a captured piece",
                 "write `promote on enemy-royal-rank by-exchange from captured [optional]`");
      p.promote_exchange = true;
      p.constructs.push_back(ConstructUse{ConstructId::PromoteByExchange, c.loc, {}, group_});
    } else {
      d_.error(c.loc, "`promote` takes `on rank N to LETTERS` or `on enemy-royal-rank by-exchange ...`");
    }
  }

  void castling(const Stmt& s) {
    m_.castling_loc = s.loc;
    if (s.args.size() == 1 && s.args[0].is("none")) {
      m_.castling = false;
      use(ConstructId::CastlingNone, s.loc);
      return;
    }
    use(ConstructId::Castling, s.loc);
    if (!s.args.empty()) d_.error(s.args[0].loc, "`castling` takes a block or `none`");
    m_.castling = true;
    for (const Stmt& c : body(s)) dispatch(Scope::Castling, c);
  }
  void castling_rook(const Stmt& c) {
    use(ConstructId::CastlingRook, c.loc);
    if (want_args(c, 1, 8, "LETTER...")) {
      m_.castling_rooks.clear();
      for (const Value& v : c.args) {
        char l = 0;
        if (piece_letter(v, l)) m_.castling_rooks.push_back(l);
      }
      if (!m_.castling_rooks.empty()) m_.castling_rook = m_.castling_rooks[0];
    }
  }
  void castling_king(const Stmt& c) {
    use(ConstructId::CastlingKing, c.loc);
    if (want_args(c, 1, 1, "LETTER")) piece_letter(c.args[0], m_.castling_king);
  }
  void castling_side(const Stmt& c) {
    use(c.keyword == "king-side" ? ConstructId::CastlingKingSide : ConstructId::CastlingQueenSide, c.loc);
    if (!want_args(c, 4, 4, "king-to FILE rook-to FILE")) return;
    auto file = [&](const Value& v) -> int {
      if (v.text.size() != 1 || v.text[0] < 'a' || v.text[0] > 'z') {
        d_.error(v.loc, "expected a file letter, found `" + v.text + "`");
        return 0;
      }
      return v.text[0] - 'a';
    };
    if (!c.args[0].is("king-to") || !c.args[2].is("rook-to")) {
      d_.error(c.loc, "expected `king-to FILE rook-to FILE`");
      return;
    }
    int kf = file(c.args[1]), rf = file(c.args[3]);
    if (c.keyword == "king-side") {
      m_.ks_king_to = kf;
      m_.ks_rook_to = rf;
    } else {
      m_.qs_king_to = kf;
      m_.qs_rook_to = rf;
    }
  }

  void setup(const Stmt& s) {
    m_.setup_loc = s.loc;
    if (s.args.size() == 1 && s.args[0].kind == ValueKind::String) {
      m_.setup_text_loc = s.args[0].loc;
      m_.setup_kind = SetupKind::Text;
      m_.setup_text = s.args[0].text;
      use(ConstructId::SetupText, s.loc);
    } else if (s.args.size() == 1 && s.args[0].is("empty")) {
      m_.setup_kind = SetupKind::Empty;
      use(ConstructId::SetupEmpty, s.loc);
    } else if (!s.args.empty() && s.args[0].is("chess960")) {
      m_.setup_kind = SetupKind::Chess960;
      if (s.args.size() == 3 && s.args[1].is("default") && s.args[2].kind == ValueKind::String) {
        m_.setup_text = s.args[2].text;
        m_.setup_text_loc = s.args[2].loc;
      } else if (s.args.size() != 1) {
        d_.error(
            s.args[1].loc, "`setup chess960` takes nothing more, or `default \"TEXT\"`",
            "write `setup chess960 default \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"`");
      }
      use(ConstructId::SetupChess960, s.loc);
    } else {
      d_.error(s.loc, "`setup` takes a position text, `empty`, or `chess960 [default \"TEXT\"]`");
    }
  }

  void turn(const Stmt& s) {
    m_.turn_loc = s.loc;
    m_.action_move = m_.action_place = false;
    m_.phases.clear();
    turn_any_ = false;
    for (const Stmt& c : body(s)) dispatch(Scope::Turn, c);
    if (!turn_any_) d_.error(s.loc, "`turn` needs at least one `action` or `phase`");
  }
  void action_stmt(const Stmt& c) {
    turn_any_ = true;
    for (const Value& v : c.args) {
      if (v.is("move")) {
        m_.action_move = true;
        use(ConstructId::ActionMove, v.loc);
      } else if (v.is("place")) {
        m_.action_place = true;
        use(ConstructId::ActionPlace, v.loc);
      } else if (!v.is("or"))
        d_.error(v.loc, "unknown action `" + v.text + "`", did_you_mean_or_list(v.text, {"move", "place"}));
    }
  }
  void phase_stmt(const Stmt& c) {
    turn_any_ = true;
    if (c.args.empty()) {
      d_.error(c.loc, "`phase` needs a name");
      return;
    }
    static const std::vector<std::string> phases = {"move",      "place",     "draw",  "royal-move",
                                                    "draw-card", "play-card", "redraw"};
    if (std::find(phases.begin(), phases.end(), c.args[0].text) == phases.end()) {
      std::string hint = did_you_mean(c.args[0].text, phases);
      if (hint.empty()) {
        hint = "phases:";
        for (const std::string& p : phases) hint += " " + p;
      }
      d_.error(c.args[0].loc, "unknown phase `" + c.args[0].text + "`", hint);
    }
    Phase ph;
    ph.name = c.args[0].text;
    ph.loc = c.loc;
    for (size_t i = 1; i < c.args.size(); ++i) {
      const Value& v = c.args[i];
      if (v.is("optional"))
        ph.optional = true;
      else if (v.is("mandatory"))
        ph.optional = false;
      else if (v.is("after") && i + 1 < c.args.size())
        ph.after = c.args[++i].text;
      else
        d_.error(v.loc, "unexpected `" + v.text + "` in `phase`",
                 "write `phase NAME mandatory|optional [after PHASE]`");
    }
    m_.phases.push_back(ph);
    static const std::map<std::string, ConstructId> ids = {{"move", ConstructId::PhaseMove},
                                                           {"place", ConstructId::PhasePlace},
                                                           {"royal-move", ConstructId::PhaseRoyalMove},
                                                           {"draw", ConstructId::PhaseDraw},
                                                           {"draw-card", ConstructId::PhaseDrawCard},
                                                           {"play-card", ConstructId::PhasePlayCard},
                                                           {"redraw", ConstructId::PhaseRedraw}};
    if (auto it = ids.find(ph.name); it != ids.end()) use(it->second, c.loc);
  }

  void placement(const Stmt& s) {
    for (const Stmt& c : body(s)) dispatch(Scope::Placement, c);
  }

  void records(const Stmt& s) {
    m_.records = RecordFacts{};
    m_.records.loc = s.loc;
    use(ConstructId::Records, s.loc);
    for (const Stmt& c : body(s)) dispatch(Scope::Records, c);
  }
  void record_name(const Stmt& c) {
    if (c.args.empty()) d_.error(c.loc, "`name` needs one or more quoted names");
    for (const Value& v : c.args) {
      if (v.kind != ValueKind::String || v.text.empty())
        d_.error(v.loc, "`name` takes quoted names, found `" + v.text + "`");
      else
        m_.records.names.push_back(v.text);
      m_.records.names_of = m_.name;
    }
    use(ConstructId::RecordName, c.loc);
  }

  // `tag NAME -> TARGET ["TEXT" = VALUE]...`
  void record_tag(const Stmt& c) {
    const auto& a = c.args;
    if (a.size() < 3 || a[0].kind != ValueKind::Word || !a[1].is("->") || a[2].kind != ValueKind::Word) {
      d_.error(c.loc, "`tag` is written `tag NAME -> OPTION` (or `-> seed`, `-> dice-seed`)");
      return;
    }
    RecordTagMap t{a[0].text, a[2].text, {}, c.loc};
    if (t.target != "seed" && t.target != "dice-seed" && !m_.option(t.target)) {
      d_.error(a[2].loc, "`tag " + t.tag + " -> " + t.target + "`: no option of that name",
               "a tag sets an option, `seed` (the start `start:N`) or `dice-seed` (the Chess960 dice start)");
      return;
    }
    for (size_t i = 3; i < a.size(); i += 3) {
      if (i + 2 >= a.size() || !a[i + 1].is("=") || a[i + 2].kind == ValueKind::Symbol) {
        d_.error(a[i].loc, "a value mapping is written `\"TEXT\" = VALUE`");
        return;
      }
      t.values.push_back({a[i].kind == ValueKind::Number ? std::to_string(a[i].num) : a[i].text,
                          a[i + 2].kind == ValueKind::Number ? std::to_string(a[i + 2].num) : a[i + 2].text});
      // The value must be one the option takes (its `one-of` list).
      const OptionDef* o = m_.option(t.target);
      if (o && !o->choices.empty() &&
          std::find(o->choices.begin(), o->choices.end(), t.values.back().second) == o->choices.end()) {
        d_.error(a[i + 2].loc, "option `" + o->name + "` takes no value `" + t.values.back().second + "`",
                 did_you_mean(t.values.back().second, o->choices));
        return;
      }
    }
    std::erase_if(m_.records.tags, [&](const RecordTagMap& o) { return o.tag == t.tag; });
    m_.records.tags.push_back(std::move(t));
    use(ConstructId::RecordTag, c.loc);
  }

  void legal(const Stmt& s) {
    m_.royal_safe = m_.royals_apart = m_.royals_not_facing = m_.no_check_given = m_.duple_check = false;
    for (const Stmt& c : body(s)) dispatch(Scope::Legal, c);
  }

  void end(const Stmt& s) {
    m_.end.clear();
    m_.claim_repetition.reset();
    m_.claim_fifty.reset();
    for (const Stmt& c : body(s)) dispatch(Scope::End, c);
  }
  void claim(const Stmt& c) {
    use(ConstructId::Claim, c.loc);
    if (c.args.empty()) {
      d_.error(c.loc, "`claim` takes `repetition` or `fifty-move`");
      return;
    }
    const std::string& what = c.args[0].text;
    std::optional<int> n;
    if (c.args.size() > 1) n = number(c.args[1], "a count", 1, 10000);
    if (what == "repetition") {
      m_.claim_repetition = n.value_or(option_int("repetition", 3));
    } else if (what == "fifty-move") {
      m_.claim_fifty = n.value_or(option_int("fifty-move", 100));
    } else {
      d_.error(c.args[0].loc, "unknown claim `" + what + "`",
               did_you_mean_or_list(what, {"repetition", "fifty-move"}));
    }
  }
  void end_rule(const Stmt& c) {
    EndRule r;
    r.condition = c.keyword;
    r.loc = c.loc;
    size_t i = 0;
    while (i < c.args.size() && !c.args[i].is("->")) r.args.push_back(c.args[i++].text);
    if (i >= c.args.size() || i + 1 >= c.args.size()) {
      d_.error(c.loc, "an end condition needs `-> RESULT`", "e.g. `checkmate -> loss`");
      return;
    }
    r.result = c.args[i + 1].text;
    if (std::find(kResults.begin(), kResults.end(), r.result) == kResults.end())
      d_.error(c.args[i + 1].loc, "unknown result `" + r.result + "`", did_you_mean_or_list(r.result, kResults));
    r.reason = c.keyword;
    for (size_t j = i + 2; j < c.args.size(); ++j) {
      if (c.args[j].kind == ValueKind::String)
        r.reason = c.args[j].text;
      else if (c.args[j].is("when") && j + 1 < c.args.size())
        r.when = c.args[++j].text;
      else
        d_.error(c.args[j].loc, "unexpected `" + c.args[j].text + "`");
    }
    if (r.condition == "region-reached")
      region_reached(c, r);
    else if (r.condition != "region-reached" && !r.args.empty())
      d_.error(c.loc, "unexpected `" + r.args[0] + "` before `->`");
    // `when fewer-pieces` (issue 24): a stalemate judged by the pieces each side holds.
    if (!r.when.empty() && r.when != "reserves-empty" &&
        !(r.when == "fewer-pieces" && r.condition == "stalemate"))
      d_.error(c.loc, "unknown condition `" + r.when + "`",
               did_you_mean(r.when, r.condition == "stalemate" ? std::vector<std::string>{"fewer-pieces"}
                                                               : std::vector<std::string>{"reserves-empty"}));
    static const std::map<std::string, ConstructId> ids = {
        {"checkmate", ConstructId::EndCheckmate},
        {"stalemate", ConstructId::EndStalemate},
        {"insufficient-material", ConstructId::EndInsufficient},
        {"no-legal-move", ConstructId::EndNoLegalMove},
        {"royal-capture", ConstructId::EndRoyalCapture},
        {"region-reached", ConstructId::EndRegionReached},
        {"agreement", ConstructId::EndAgreement}};
    use(ids.at(r.condition), c.loc);
    m_.end.push_back(r);
  }
  // `region-reached [any] royal|LETTER REGION [unless-answered|safe|held] -> win`: every piece of that
  // kind of the mover (at least one) stands in the region, or with `any` one of them does. `unless-answered`:
  // when the first player (White) reaches it, the second may answer by reaching it too, a draw. `safe`
  // (dobutsu): only while no enemy piece attacks them there, for either side in any position. `held`:
  // the side to move wins when its pieces stand so at its turn (they survived the reply).
  void region_reached(const Stmt& c, const EndRule& r) {
    const char* form =
        "write it as `region-reached [any] royal|LETTER REGION [unless-answered|safe|held] -> win` "
        "(`region-reached royal enemy-half -> win`)";
    const size_t first = !r.args.empty() && r.args[0] == "any" ? 1 : 0;
    size_t n = r.args.size() - first;
    if (n >= 3 && (r.args[first + 2] == "unless-answered" || r.args[first + 2] == "safe" ||
                   r.args[first + 2] == "held"))
      --n;
    if (n != 2) {
      d_.error(n > 2 ? c.args[2].loc : c.loc,
               "`region-reached` takes `[any] royal|LETTER REGION [unless-answered|safe|held]` before `->`",
               form);
      return;
    }
    const Value& who = c.args[first];
    if (!who.is("royal") && !(who.kind == ValueKind::Word && who.text.size() == 1 &&
                              std::isupper(static_cast<unsigned char>(who.text[0])))) {
      d_.error(who.loc, "`region-reached` takes `royal` or a piece letter, found `" + who.text + "`", form);
      return;
    }
    if (!known_region(c.args[first + 1].text)) unknown_region(c.args[first + 1].text, c.args[first + 1].loc);
  }

  int option_int(const std::string& name, int dflt) {
    const OptionDef* o = m_.option(name);
    if (!o) return dflt;
    if (auto n = arb::parse_integer(o->value, INT32_MIN, INT32_MAX)) return static_cast<int>(*n);
    // A value from --set (digits only, so 0 and up): named as the user wrote it.
    if (auto it = overrides_.find(name); it != overrides_.end() && it->second == o->value) {
      d_.error(o->loc, "--set " + name + "=" + o->value + ": " + arb::integer_problem(o->value, 0, INT32_MAX));
      return dflt;
    }
    d_.error(o->loc, "option `" + name +
                         "` must be a number: " + arb::integer_problem(o->value, INT32_MIN, INT32_MAX));
    return dflt;
  }

  void expect(const Stmt& s) {
    for (const Stmt& c : body(s)) dispatch(Scope::Expect, c);
  }
  void expect_line(const Stmt& c) {
    Expectation e;
    e.kind = c.keyword;
    e.loc = c.loc;
    static const std::map<std::string, ConstructId> ids = {{"perft", ConstructId::ExpectPerft},
                                                           {"status", ConstructId::ExpectStatus},
                                                           {"legal", ConstructId::ExpectLegal},
                                                           {"illegal", ConstructId::ExpectIllegal}};
    if (auto it = ids.find(c.keyword); it != ids.end()) use(it->second, c.loc);
    size_t i = 0;
    if (i < c.args.size() && c.args[i].kind == ValueKind::String && c.keyword != "legal" &&
        c.keyword != "illegal")
      e.position = c.args[i++].text;
    if (c.keyword == "perft") {
      if (i + 3 != c.args.size() || !c.args[i + 1].is("=")) {
        d_.error(c.loc, "expected `perft [\"POSITION\"] DEPTH = NODES`");
        return;
      }
      auto d = number(c.args[i], "a depth", 0, 12);
      if (!d) return;
      e.depth = *d;
      if (c.args[i + 2].kind != ValueKind::Number || c.args[i + 2].num < 0) {
        d_.error(c.args[i + 2].loc, "expected a node count (a number, 0 or more)");
        return;
      }
      e.nodes = static_cast<unsigned long long>(c.args[i + 2].num);
    } else if (c.keyword == "status") {
      if (i + 2 != c.args.size() || !c.args[i].is("=")) {
        d_.error(c.loc, "expected `status [\"POSITION\"] = REASON`");
        return;
      }
      e.text = c.args[i + 1].text;
    } else if (c.keyword == "legal" || c.keyword == "illegal") {
      if (c.args.size() == 2) {
        e.position = c.args[0].text;
        e.text = c.args[1].text;
      } else if (c.args.size() == 1) {
        e.text = c.args[0].text;
      } else {
        d_.error(c.loc, "expected `" + c.keyword + " [\"POSITION\"] ACTION`");
        return;
      }
    }
    m_.expects.push_back(e);
  }

  void army(const Stmt& s) {
    if (s.args.size() < 2) {
      d_.error(s.loc, "`army` takes a name and its piece letters");
      return;
    }
    ArmyDef a;
    a.name = s.args[0].text;
    a.loc = s.loc;
    for (size_t i = 1; i < s.args.size(); ++i) {
      char l;
      if (!piece_letter(s.args[i], l)) continue;
      a.letters.push_back(l);
      if (!m_.piece(l)) d_.error(s.args[i].loc, std::string("no piece has the letter `") + l + "`");
    }
    use(ConstructId::Army, s.loc);
    army_ = &a;
    for (const Stmt& c : body(s)) dispatch(Scope::Army, c);
    army_ = nullptr;
    if (!m_.armies.empty() && a.letters.size() != m_.armies.front().letters.size() &&
        m_.armies.front().name != a.name)
      d_.error(s.loc,
               "army `" + a.name + "` lists " + std::to_string(a.letters.size()) +
                   " pieces, the first army `" + m_.armies.front().name + "` " +
                   std::to_string(m_.armies.front().letters.size()),
               "an army's letters replace the first army's, position by position");
    std::erase_if(m_.armies, [&](const ArmyDef& o) { return o.name == a.name; });
    m_.armies.push_back(a);
  }
// clang-format on
