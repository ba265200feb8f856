// Armies, the turn, counted ends, the bitboard back end's turn and Betza gate.
//
// A part of the body of class Compiler (compile.cpp includes it inside the class, in
// this place): member functions moved out of compile.cpp unchanged. Not a standalone
// header; include it nowhere else. clang-format would unindent it: it is formatted as
// part of the class.
// clang-format off

  // ---- armies (RULINGS 4.1) -----------------------------------------------------------
  // With `army` statements, the options `white-army` and `black-army` choose one army per
  // colour; only the pieces of the two armies (and their promotions) are compiled, and
  // only their constructs must be executable.
  std::array<const ArmyDef*, 2> sel_{nullptr, nullptr};
  std::vector<int> used_;  // the model's piece index of each program type

  void select_armies() {
    used_.clear();
    std::set<char> wanted;
    if (!m_.armies.empty()) {
      static const char* names[2] = {"white-army", "black-army"};
      std::vector<std::string> army_names;
      for (const ArmyDef& a : m_.armies) army_names.push_back(a.name);
      for (int c = 0; c < 2; ++c) {
        const OptionDef* o = m_.option(names[c]);
        if (!o) {
          d_.error(m_.armies.front().loc,
                   std::string("a ruleset with armies needs the option `") + names[c] + "`",
                   std::string("add `option ") + names[c] + " = " + m_.armies.front().name + " \"...\"`");
          continue;
        }
        for (const ArmyDef& a : m_.armies)
          if (a.name == o->value) sel_[c] = &a;
        if (!sel_[c]) {
          d_.error(o->loc, "option `" + o->name + "` = " + o->value + " names no army",
                   did_you_mean(o->value, army_names));
          continue;
        }
        for (char l : sel_[c]->letters) wanted.insert(l);
        for (char l : sel_[c]->promote_to) wanted.insert(l);
      }
    }
    for (int k = 0; k < static_cast<int>(m_.pieces.size()); ++k)
      if (m_.armies.empty() || wanted.count(m_.pieces[k].letter)) used_.push_back(k);
  }

  // The construct uses the compiled program runs: those outside armies and pieces, those of
  // the selected armies, and those of the compiled pieces.
  std::vector<const ConstructUse*> used_constructs() const {
    std::vector<const ConstructUse*> out;
    for (const ConstructUse& u : m_.constructs) {
      if (u.group.rfind("army ", 0) == 0) {
        std::string name = u.group.substr(5);
        if (!((sel_[0] && sel_[0]->name == name) || (sel_[1] && sel_[1]->name == name))) continue;
      }
      out.push_back(&u);
    }
    for (int k : used_)
      for (const ConstructUse& u : m_.pieces[k].constructs) out.push_back(&u);
    return out;
  }

  // A rampage blocker no compiled piece can be is no blocker: one program with or without
  // it (an `immune` blocker without immune pieces; an enemy of its own type when only one
  // army holds the type), so the mutants of such words are equivalent by construction.
  void normalize_rampages(Program& p) {
    bool any_immune = false;
    for (const PieceProgram& pp : p.types) any_immune = any_immune || pp.immune;
    for (int t = 0; t < p.ntypes; ++t) {
      PieceProgram& pp = p.types[t];
      if (!pp.rampage.reach) continue;
      if (!any_immune) pp.rampage.blocked_immune = false;
      if (!(p.army_types[0] >> t & 1) || !(p.army_types[1] >> t & 1)) pp.rampage.self_beyond = -1;
    }
  }

  void armies(Program& p) {
    if (!sel_[0] || !sel_[1]) return;
    p.army_base = m_.armies.front().letters;
    for (int c = 0; c < 2; ++c) {
      const ArmyDef& a = *sel_[c];
      p.army[c] = a.name;
      p.army_slots[c] = a.letters;
      p.castles[c] = a.castles;
      p.king_turn[c] = a.king_turn;
      p.royal_count[c] = 0;
      for (char l : a.letters) {
        size_t t = p.letters.find(l);
        if (t != std::string::npos && (p.royal_types >> t & 1)) ++p.royal_count[c];
      }
      p.army_types[c] = 0;
      // Every letter is a compiled piece (select_armies compiled them; sema checked them).
      for (char l : a.letters + a.promote_to)
        if (p.letters.find(l) != std::string::npos) p.army_types[c] |= 1u << p.letters.find(l);
      std::string choices;
      for (char l : a.promote_to)
        if (p.letters.find(l) != std::string::npos) choices.push_back(static_cast<char>(p.letters.find(l)));
      for (PieceProgram& pp : p.types)
        if (pp.promote_zone[c]) pp.promote_choices[c] = choices;
    }
    // The armies' choices replace a piece's own `promote ... to` list everywhere.
    for (int t = 0; t < p.ntypes; ++t) {
      PieceProgram& pp = p.types[t];
      if (!pp.promote_zone[0] && !pp.promote_zone[1]) continue;
      pp.promote_to.clear();
      for (int c = 0; c < 2; ++c)
        if (p.army_types[c] >> t & 1)
          for (char ch : pp.promote_choices[c])
            if (pp.promote_to.find(ch) == std::string::npos) pp.promote_to.push_back(ch);
    }
  }

  // The turn: `action` (one normal action) then the phases, in order. Each back end then
  // says which shapes it runs; any other is an error at the phase.
  void turn(Program& p) {
    if (m_.action_move || m_.action_place) p.turn.push_back(PhaseProgram{PhaseKind::Action, false, -1});
    static const std::map<std::string, PhaseKind> kinds = {
        {"move", PhaseKind::Move},          {"place", PhaseKind::Place},
        {"draw", PhaseKind::Draw},          {"royal-move", PhaseKind::RoyalMove},
        {"draw-card", PhaseKind::DrawCard}, {"play-card", PhaseKind::PlayCard},
        {"redraw", PhaseKind::Redraw}};
    const int offset = static_cast<int>(p.turn.size());
    for (size_t j = 0; j < m_.phases.size(); ++j) {
      const Phase& ph = m_.phases[j];
      PhaseProgram pp;
      pp.kind = kinds.at(ph.name);
      pp.optional = ph.optional;
      if (!ph.after.empty()) {
        // `after NAME`: the nearest earlier phase of that name.
        for (size_t i = 0; i < j; ++i)
          if (m_.phases[i].name == ph.after) pp.after = offset + static_cast<int>(i);
        if (pp.after < 0) d_.error(ph.loc, "`after " + ph.after + "`: no earlier phase `" + ph.after + "`");
      }
      p.turn.push_back(pp);
    }
    turn_locs_.clear();
    if (m_.action_move || m_.action_place) turn_locs_.push_back(m_.turn_loc);
    for (const Phase& ph : m_.phases) turn_locs_.push_back(ph.loc);
  }
  std::vector<Loc> turn_locs_;

  // Issue 24's end conditions, counters and forced capture (gen_ends.hpp runs them):
  // `extinction`, `checks N -> win` from the end block, `must-capture` from the legal block.
  void counted_ends(Program& p) {
    for (const ConstructUse& u : m_.constructs) {
      if (u.id == ConstructId::MustCapture) p.must_capture = true;
      if (u.id == ConstructId::MustDrop && !u.has("")) p.must_drop = true;  // shogi2
      if (u.id == ConstructId::CastlingByDrop) p.castle_by_drop = true;
      if (u.id == ConstructId::EndDrawOdds) p.draw_odds = u.arg("").text == "white" ? 0 : 1;
      if (u.id == ConstructId::MustDrop && u.has("")) {
        const std::vector<std::string>& w = u.arg("").words;
        const size_t t = w.size() == 1 ? p.letters.find(w[0][0]) : std::string::npos;
        if (w.size() != 1)
          d_.error(u.arg("").loc, "`must-drop` takes one piece letter");
        else if (t == std::string::npos)
          d_.error(u.arg("").loc, "`must-drop`: no compiled piece has the letter `" + w[0] + "`");
        else
          p.must_drop_type = static_cast<int>(t);
      }
      if (u.id == ConstructId::RoyalInCheck) {
        p.royal_stays_in_check = true;
        if (p.royal_type < 0 || !p.royal_safe)
          d_.error(u.loc,
                   "`royal-stays-in-check` restricts a royal piece in check: it needs a royal piece and "
                   "`royal-safe`");
        // Its test asks attacked(), which sees leaps and rides only.
        for (int t = 0; t < p.ntypes; ++t)
          if (p.types[t].special() || p.types[t].explodes())
            d_.error(u.loc, std::string("`royal-stays-in-check` with `") + p.letters[t] +
                                "`'s special moves (hops, lame leaps, Chess 2 primitives, explosions) is not "
                                "executable yet by the bitboard back end");
      }
      if (u.id == ConstructId::EndChecks) {
        p.checks_to_win = static_cast<int>(u.arg("").num);
        if (p.royal_type < 0 || !p.royal_safe)
          d_.error(u.loc, "`checks` counts checks: it needs a royal piece and `legal { royal-safe }`");
      }
      if (u.id == ConstructId::EndCheckmateBy) checkmate_by(p, u);
      if (u.id != ConstructId::EndExtinction) continue;
      Program::Extinction e;
      for (const std::string& w : u.arg("").words) {
        if (w == "all") {
          e.all = true;
          continue;
        }
        size_t t = p.letters.find(w[0]);
        if (t == std::string::npos)
          d_.error(u.arg("").loc, "`extinction`: no compiled piece has the letter `" + w + "`");
        else
          e.types |= 1u << t;
      }
      if (e.all && e.types)
        d_.error(u.arg("").loc, "`extinction` takes `all` or piece letters, not both",
                 "state two `extinction` rules for two conditions");
      if (const ArgValue& a = u.arg("at-most"); a.present) e.at_most = static_cast<int>(a.num);
      if (const ArgValue& a = u.arg("opponent-at-least"); a.present)
        e.opponent_at_least = static_cast<int>(a.num);
      e.claim = u.arg("claim").present;
      const std::string& r = u.arg("->").text;
      e.value = r == "win" ? 1 : r == "loss" ? -1 : 0;
      p.extinctions.push_back(e);
    }
  }

  // `checkmate-by LETTERS [only|in-series] -> RESULT` (issue 26: shatar's mate rule): the
  // generator finds the checkers' types by leaps and rides (Generator::checker_types).
  void checkmate_by(Program& p, const ConstructUse& u) {
    Program::MateRule r;
    for (const std::string& w : u.arg("").words) {
      const size_t t = p.letters.find(w[0]);
      if (t == std::string::npos)
        d_.error(u.arg("").loc, "`checkmate-by`: no compiled piece has the letter `" + w + "`");
      else
        r.types |= 1u << t;
    }
    r.only = u.arg("only").present;
    r.series = u.arg("in-series").present;
    r.dropped = u.arg("dropped").present;
    if (r.only && r.series)
      d_.error(u.loc, "`checkmate-by` takes `only` or `in-series`, not both",
               "state two `checkmate-by` rules for two conditions");
    if (r.dropped && (r.only || r.series))
      d_.error(u.loc, "`checkmate-by ... dropped` takes neither `only` nor `in-series`",
               "`dropped` already asks every checker to be of the types");
    const std::string& v = u.arg("->").text;
    r.value = v == "win" ? 1 : v == "loss" ? -1 : 0;
    if (p.royal_type < 0 || !p.royal_safe)
      d_.error(u.loc, "`checkmate-by` judges a checkmate: it needs a royal piece and `legal { royal-safe }`");
    for (int t = 0; t < p.ntypes; ++t) {
      // `dropped`: after a drop the dropped piece is the only checker, unless a piece's
      // check needs another piece (a hopper's screen, a borrowed move): those, and the
      // listed types, must be pieces whose checks the generator names.
      const PieceProgram& pt = p.types[t];
      const bool hops = std::any_of(pt.paths[0].begin(), pt.paths[0].end(),
                                    [](const PieceProgram::Path& w) { return w.hop != 0; });
      const bool judged = !r.dropped || (r.types >> t & 1) || hops || pt.borrows;
      if (judged && (pt.special() || pt.explodes()))
        d_.error(u.loc, std::string("`checkmate-by` with `") + p.letters[t] +
                            "`'s special moves (hops, lame leaps, Chess 2 primitives, explosions) is not "
                            "executable yet by the bitboard back end");
    }
    p.mate_rules.push_back(r);
    p.checkmate_loses = false;  // a checkmate's result depends on its checkers
  }

  // The bitboard back end runs the normal action, optionally followed by a royal move.
  void bitboard_turn(const Program& p) {
    // Hands, discards and reshuffles belong to the card layer: without a deck they would
    // be ignored, so they are refused.
    for (const ConstructUse& u : m_.constructs)
      if (u.id == ConstructId::Hand || u.id == ConstructId::Discard || u.id == ConstructId::Reshuffle)
        d_.error(u.loc, "`" + u.def().keyword + "` needs a `deck` on the bitboard back end");
    const auto& t = p.turn;
    for (size_t i = 0; i < t.size(); ++i) {
      bool ok = (i == 0 && t[i].kind == PhaseKind::Action) ||
                (i == 1 && t[i].kind == PhaseKind::RoyalMove && t[i].optional && t[i].after < 0);
      if (!ok) {
        d_.error(turn_locs_[i], "this turn phase is not executable yet by the bitboard back end",
                 "it runs `action move|place`, then optionally `phase royal-move optional`");
        return;
      }
    }
    if (t.empty()) d_.error(m_.turn_loc, "the bitboard back end needs an `action` in the `turn` block");
    if (t.size() == 2 && p.royal_type < 0) d_.error(turn_locs_[1], "`phase royal-move` needs a royal piece");
  }

  // Betza modifiers the generators cannot run (a, ...; d and the hoppers p, g only on the
  // bitboard back end) are a located compile error.
  bool betza_executable(const BetzaText& bt, const std::vector<BetzaMove>& moves, bool bitboard = false) {
    for (const BetzaMove& mv : moves) {
      if (mv.hop && !bitboard) {
        d_.error(bt.loc,
                 std::string("Betza modifier `") + mv.hop + "` is not executable yet by the unbounded grid",
                 "hoppers (`p`, `g`) run on bounded boards (the bitboard back end)");
        return false;
      }
      if (!mv.unsupported.empty() && !(bitboard && mv.unsupported == "d" && mv.range == 1 && !mv.initial &&
                                       !mv.lame && !mv.en_passant)) {
        d_.error(bt.loc,
                 "Betza modifier `" + mv.unsupported + "` is not executable yet by the compiled generator",
                 "the generators run W F D N A H C Z G atoms, riders, and the m c f b l r s v h i n e p g "
                 "modifiers");
        return false;
      }
    }
    return true;
  }
  bool on(const Program& p, int x, int y) const { return x >= 0 && y >= 0 && x < p.width && y < p.height; }
// clang-format on
