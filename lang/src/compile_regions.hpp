// Royal counts, regions, promotion zones and region constructs.
//
// A part of the body of class Compiler (compile.cpp includes it inside the class, in
// this place): member functions moved out of compile.cpp unchanged. Not a standalone
// header; include it nowhere else. clang-format would unindent it: it is formatted as
// part of the class.
// clang-format off

  // ---- gen_pawns: how many royal pieces a colour may hold -----------------------------
  // Without armies (which state theirs), as many as the start gives it, at least one;
  // any number when a piece promotes to a royal type (coregal's queens, spartan's kings).
  void royal_counts(Program& p) {
    if (!p.army[0].empty() || !p.royal_types) return;
    for (const PieceProgram& pp : p.types)
      for (int c = 0; c < 2; ++c)
        for (char t : pp.promote_choices[c])
          if (p.royal_types >> t & 1) {
            p.royal_count = {kMaxRoyals, kMaxRoyals};
            return;
          }
    std::array<int, 2> n{0, 0};
    for (char ch : p.start_text) {
      if (ch == ' ' || ch == '[') break;
      const size_t t = p.letters.find(static_cast<char>(std::toupper(static_cast<unsigned char>(ch))));
      if (std::isalpha(static_cast<unsigned char>(ch)) && t != std::string::npos && (p.royal_types >> t & 1))
        ++n[std::islower(static_cast<unsigned char>(ch)) ? 1 : 0];
    }
    for (int c = 0; c < 2; ++c) p.royal_count[c] = std::max(1, n[c]);
  }
  static constexpr int kMaxRoyals = 256;

  // ---- regions (issue 24) ---------------------------------------------------------------
  // Program::regions: the built-in `own-half` (0) and `enemy-half` (1), then each `region`
  // statement, per colour. A rectangle off the board is an error at its place.
  std::map<std::string, int> region_index_;
  void regions(Program& p) {
    p.regions.assign(2, {});
    const int half = p.height / 2;
    for (int y = 0; y < p.height; ++y)
      for (int x = 0; x < p.width; ++x) {
        if (y < half) p.regions[0][0].set(sq(p, x, y)), p.regions[1][1].set(sq(p, x, y));
        if (y >= p.height - half) p.regions[0][1].set(sq(p, x, y)), p.regions[1][0].set(sq(p, x, y));
      }
    region_index_ = {{"own-half", 0}, {"enemy-half", 1}};
    for (const RegionDef& r : m_.regions) {
      std::array<SquareSet, 2> sets;
      for (const RegionDef::Rect& rc : r.rects) {
        const int x1 = rc.x1 == RegionDef::kAllFiles ? p.width - 1 : rc.x1;
        if (rc.x0 >= p.width || rc.y0 >= p.height || x1 >= p.width || rc.y1 >= p.height) {
          d_.error(rc.loc, "region `" + r.name + "`: off the " + std::to_string(p.width) + " x " +
                               std::to_string(p.height) + " board");
          continue;
        }
        for (int y = rc.y0; y <= rc.y1; ++y)
          for (int x = rc.x0; x <= x1; ++x) {
            sets[0].set(sq(p, x, y));
            if (r.rotated)  // turned by 180 degrees
              sets[1].set(sq(p, p.width - 1 - x, p.height - 1 - y));
            else
              sets[1].set(sq(p, x, r.mirrored ? p.height - 1 - y : y));
          }
      }
      region_index_[r.name] = static_cast<int>(p.regions.size());
      p.regions.push_back(sets);
    }
  }
  int region_of(const std::string& name) const {
    auto it = region_index_.find(name);
    return it == region_index_.end() ? -1 : it->second;  // sema admits only known names
  }
  // ---- gen_promote: `promotes-to LETTER in REGION [optional]` (shogi) -------------------
  // The zone is the region's squares per colour (the tables read promote_region); moves
  // leaving it may promote as well; the one promoted type is the piece's choice.
  void promote_zone(Program& p, const PieceDef& def, const ConstructUse& u, PieceProgram& pp) {
    if (def.promote_ranks || def.promote_exchange) {
      d_.error(u.loc, "`promotes-to` and `promote on ...` on one piece: state one promotion");
      return;
    }
    // One type (shogi), or several to choose from (Troitzky chess's pawn: `promotes-to Q R B N`);
    // `captures-to-hand plus-marks` writes a promoted piece `+BASE`, which names one type.
    const ArgValue& to = u.arg("");
    bool plus = false;
    for (const ConstructUse& c : m_.constructs)
      if (c.id == ConstructId::CapturesToHand && c.has("plus-marks")) plus = true;
    if (to.words.empty() || (plus && to.words.size() != 1)) {
      d_.error(to.loc, "`promotes-to` takes one piece letter with `captures-to-hand plus-marks`",
               "e.g. `promotes-to H in camp optional`");
      return;
    }
    std::string types;
    for (const std::string& w : to.words) {
      const size_t idx = w.size() == 1 ? p.letters.find(w[0]) : std::string::npos;
      if (idx == std::string::npos) {
        d_.error(to.loc, "`promotes-to " + w + "`: no piece has that letter");
        return;
      }
      if (def.royal || m_.pieces[used_[idx]].royal || w[0] == def.letter) {
        d_.error(to.loc,
                 "`promotes-to`: a royal piece neither promotes nor is promoted to, nor a piece to itself");
        return;
      }
      if (types.find(static_cast<char>(idx)) == std::string::npos) types.push_back(static_cast<char>(idx));
    }
    pp.promote_region = region_of(u.arg("in").text);
    pp.promote_leaving = true;
    pp.promote_optional = u.has("optional");
    pp.promote_capturing = u.has("capturing");
    pp.must_promote = false;  // its drops are limited by `forbidden ranks`, not by the zone
    pp.promote_to = types;
    pp.promote_choices = {pp.promote_to, pp.promote_to};
    // The zone stands as a rank set too (armies and drops read it); the tables use the region.
    for (int c = 0; c < 2; ++c) pp.promote_zone[c] = 0;
  }

  // `confined REGION` and `region-betza "BETZA" from REGION`, compiled into the leap tables.
  void region_constructs(const PieceDef& def, PieceProgram& pp) {
    for (const ConstructUse& u : def.constructs) {
      if (u.id == ConstructId::RegionBetza) {
        std::vector<BetzaMove> moves;
        BetzaError err;
        if (!parse_betza(u.arg("").text, moves, err)) continue;
        const int region = region_of(u.arg("from").text);
        const int to = u.has("to") ? region_of(u.arg("to").text) : -1;
        for (const BetzaMove& mv : moves) {
          // Plain leaps, and (janggi's palace lines) unlimited riders and hoppers on them.
          const bool rider = mv.range == 0 && !mv.lame;
          if ((mv.range != 1 && !rider) || (mv.hop && !rider) || mv.lame || mv.initial || mv.en_passant ||
              !mv.unsupported.empty()) {
            d_.error(u.arg("").loc,
                     "`region-betza` runs plain leaps (`sW`, `fsW`, `F`, `cN`), unlimited riders and hoppers "
                     "(`B`, `pB`); this Betza is not executable yet",
                     "state lame leaps and limited riders with `betza`");
            return;
          }
          for (int c = 0; c < 2; ++c) {
            const int dy = c == 0 ? mv.dy : -mv.dy;
            if (rider) {
              PieceProgram::Path w{black_dx(c, mv.dx), dy, 0, mv.can_move, mv.can_capture, mv.hop, false};
              w.from_region = region;
              w.to_region = to;
              pp.paths[c].push_back(w);
            } else {
              pp.leaps[c].push_back({black_dx(c, mv.dx), dy, mv.can_move, mv.can_capture, false, region, to});
            }
          }
        }
      } else if (u.id == ConstructId::Confined) {
        pp.confine = region_of(u.arg("").text);
        bool long_path = false;
        for (const PieceProgram::Path& w : pp.paths[0]) long_path = long_path || w.range != 1;
        if (pp.ride_move[0] || pp.ride_capture[0] || long_path || !pp.limited[0].empty() ||
            pp.teleport_move || pp.teleport_capture || !pp.region_leaps[0].empty() ||
            !pp.own_leaps[0].empty() || pp.rampage.on() || pp.strike.on() || pp.around.on())
          d_.error(u.loc,
                   "`confined` runs on pieces that leap (`W`, `F`, `N`) or make lame or initial leaps (`nA`, "
                   "`nN`, `ifmnD`); a confined rider, hopper or Chess 2 primitive is not executable yet");
      }
    }
  }
  bool in_region(const Program& p, int region, int c, int s) const {
    return region < 0 || p.regions[region][c].test(static_cast<size_t>(s));
  }
// clang-format on
