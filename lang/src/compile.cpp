#include "arbiter/lang/compile.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <set>
#include <tuple>

#include "arbiter/chessme_text.hpp"
#include "arbiter/lang/betza.hpp"
#include "card_board.hpp"
#include "drops.hpp"
#include "flip.hpp"
#include "pass_compile.hpp"
#include "shogi2.hpp"
#include "walls.hpp"

namespace arb::lang {

namespace {

// The moves a piece's Betza texts make, in a canonical order (empty when one does not
// parse: sema reported it): two pieces move alike when these are equal, however spelled.
std::vector<std::tuple<int, int, int, bool, bool, bool, bool, bool, char, std::string>> movement(
    const std::vector<std::string>& texts) {
  std::vector<std::tuple<int, int, int, bool, bool, bool, bool, bool, char, std::string>> out;
  for (const std::string& t : texts) {
    std::vector<BetzaMove> moves;
    BetzaError err;
    if (!parse_betza(t, moves, err)) return {};
    for (const BetzaMove& m : moves)
      out.emplace_back(m.dx, m.dy, m.range, m.can_move, m.can_capture, m.en_passant, m.initial, m.lame, m.hop,
                       m.unsupported);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool same_movement(const PieceDef& def, const std::string& betza) {
  std::vector<std::string> texts;
  for (const BetzaText& bt : def.betza) texts.push_back(bt.text);
  auto mine = movement(texts);
  return !mine.empty() && mine == movement({betza});
}

// A piece stated by its Betza texts alone (and `royal`): no capture rule, effect,
// promotion or other construct that could change what it attacks.
bool plain_piece(const PieceDef& def) {
  for (const ConstructUse& u : def.constructs)
    if (u.id != ConstructId::Betza && u.id != ConstructId::Royal && u.id != ConstructId::Forbidden)
      return false;
  return !def.promote_ranks && !def.promote_exchange;
}

class Compiler {
 public:
  Compiler(const Model& m, Diagnostics& d) : m_(m), d_(d) {}

  std::shared_ptr<Program> run() {
    auto p = std::make_shared<Program>();
    p->variant = m_.name;
    for (const OptionDef& o : m_.options) p->options.emplace_back(o.name, o.value);
    std::sort(p->options.begin(), p->options.end());
    p->title = m_.title;
    if (m_.name_loc.src) p->source = m_.name_loc.src->path;
    // The gate, by identity: every construct the ruleset states must be one the chosen back
    // end executes (construct.cpp lists which back ends run each).
    const Backend backend = m_.unbounded ? kGrid : kBitboard;
    select_armies();
    bool first = true;
    for (const ConstructUse* u : used_constructs()) {
      const ConstructDef& def = u->def();
      if (def.backends & backend) continue;
      std::string where =
          def.backends ? "the " + backend_name(backend) + " back end" : "the compiled generator";
      d_.error(u->loc, "construct `" + def.keyword + "` (" + def.doc + ") is not executable yet by " + where,
               first ? "the ruleset parses and checks; running it needs generator support for this construct"
                     : "");
      first = false;
    }
    turn(*p);
    if (m_.unbounded) {
      grid(*p);
      if (d_.has_errors()) return nullptr;
      return p;
    }
    if (m_.width > kMaxFiles || m_.height > kMaxRanks) {
      d_.error(m_.board_loc,
               "boards wider or taller than 16 squares are not executable by the compiled generator",
               "the bitboard back end runs boards up to 16 x 16");
      return nullptr;
    }
    p->width = m_.width;
    p->height = m_.height;
    p->squares = m_.width * m_.height;
    if (used_.size() > kMaxTypes) {
      d_.error(m_.pieces[used_[kMaxTypes]].loc, "more than 16 piece types are not executable yet");
      return nullptr;
    }
    p->ntypes = static_cast<int>(used_.size());
    p->types.resize(p->ntypes);
    for (int t = 0; t < p->ntypes; ++t) p->letters.push_back(m_.pieces[used_[t]].letter);
    regions(*p);
    black_rotated_ = black_rotated(m_);  // shogi2.hpp: `orientation rotated`
    for (int t = 0; t < p->ntypes; ++t) piece(*p, t);
    armies(*p);
    for (int t = 0; t < p->ntypes; ++t)
      for (int u = 0; u < p->ntypes; ++u)
        if ((p->types[t].borrows >> u & 1) && !p->types[u].paths[0].empty())
          d_.error(m_.pieces[used_[t]].loc,
                   std::string("`borrows` from `") + p->letters[u] +
                       "`, a hopper, lame leaper or rider other than W and F, is not executable yet");
    normalize_rampages(*p);
    rules(*p);
    compile_hands(m_, used_, *p, d_);       // drops_compile.cpp
    compile_pass_rules(m_, used_, *p, d_);  // pass_compile.cpp
    compile_walls(m_, used_, *p, d_,
                  [this](const std::string& r) { return region_of(r); });  // walls_compile.cpp
    compile_flips(m_, used_, *p, d_);                                      // shogi2_compile.cpp
    compile_drop_rules(m_, *p, d_);
    compile_flipping(m_, used_, *p, d_);  // flip_compile.cpp
    if (m_.deck_loc.src)
      compile_cards(m_, *p, d_);  // card_compile.cpp
    else
      bitboard_turn(*p);
    royal_counts(*p);
    // Explosions and the end by royal removal run in the general loop too.
    p->chess2_primitives = p->capture_rules || p->borrowing || p->invasion ||
                           (p->royal_capture && !p->cards) || p->royals_not_facing || p->no_check_given ||
                           p->duple_check;
    for (const PieceProgram& pp : p->types)
      p->chess2_primitives = p->chess2_primitives || pp.special() || pp.explodes() || pp.capture_not;
    if (d_.has_errors()) return nullptr;
    if (p->squares <= 64)
      p->tables64 = tables<uint64_t>(*p);
    else if (p->squares <= 128)
      p->tables128 = tables<Wide<2>>(*p);
    else
      p->tables256 = tables<Wide<4>>(*p);
    return p;
  }

 private:
  const Model& m_;
  Diagnostics& d_;
  bool black_rotated_ = false;  // `orientation rotated`: Black's dx is negated too
  // Black's file step of White's dx: mirrored keeps it, rotated turns it round.
  int black_dx(int c, int dx) const { return c == 1 && black_rotated_ ? -dx : dx; }

  int sq(const Program& p, int x, int y) const { return y * p.width + x; }  // y 0-based

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

  // The per-square tables on bitboard type BB, from the geometry and the pieces' leaps.
  template <class BB>
  std::shared_ptr<const BoardTables<BB>> tables(const Program& p) const {
    using bb::set;
    auto tb = std::make_shared<BoardTables<BB>>();
    BoardTables<BB>& g = *tb;
    for (int s = 0; s < p.squares; ++s) set(g.board_mask, s);
    for (auto& row : g.dir) row.fill(-1);
    for (int y = 0; y < p.height; ++y)
      for (int x = 0; x < p.width; ++x)
        for (int d = 0; d < 8; ++d) {
          BB r{};
          for (int cx = x + kDirDx[d], cy = y + kDirDy[d]; on(p, cx, cy); cx += kDirDx[d], cy += kDirDy[d]) {
            set(r, sq(p, cx, cy));
            g.dir[sq(p, x, y)][sq(p, cx, cy)] = static_cast<int8_t>(d);
          }
          g.ray[d][sq(p, x, y)] = r;
          if (on(p, x + kDirDx[d], y + kDirDy[d]))
            set(g.adjacent[sq(p, x, y)], sq(p, x + kDirDx[d], y + kDirDy[d]));
        }
    auto zone = [&](RankSet ranks) {
      BB z{};
      for (int y = 0; y < p.height; ++y)
        if (ranks >> y & 1)
          for (int x = 0; x < p.width; ++x) set(z, sq(p, x, y));
      return z;
    };
    for (int c = 0; c < 2; ++c) g.place_zone[c] = zone(p.place_zone[c]);
    {
      // Each side's half: the h/2 ranks nearest to it (a middle rank of an odd board is neither's).
      const RankSet low = (RankSet(1) << (p.height / 2)) - 1;
      g.enemy_half[0] = zone(low << (p.height - p.height / 2));
      g.enemy_half[1] = zone(low);
    }
    if (p.flag_region >= 0)
      for (int c = 0; c < 2; ++c)
        for (int s = 0; s < p.squares; ++s)
          if (p.regions[p.flag_region][c].test(static_cast<size_t>(s))) set(g.flag_zone[c], s);
    if (p.flips.opening_region >= 0)  // `encloses opening REGION` (gen_flip.hpp)
      for (int c = 0; c < 2; ++c)
        for (int s = 0; s < p.squares; ++s)
          if (p.regions[p.flips.opening_region][c].test(static_cast<size_t>(s))) set(g.opening[c], s);
    g.pieces.resize(p.types.size());
    for (size_t t = 0; t < p.types.size(); ++t) {
      const PieceProgram& pp = p.types[t];
      PieceTables<BB>& pt = g.pieces[t];
      pt.ride_move = pp.ride_move;
      pt.ride_capture = pp.ride_capture;
      pt.special = pp.special();
      if (pp.gives_check) pt.ride_check = pp.ride_capture;
      for (int c = 0; c < 2; ++c) {
        pt.promote_zone[c] = zone(pp.promote_zone[c]);
        if (pp.promote_region >= 0)
          for (int s = 0; s < p.squares; ++s)
            if (p.regions[pp.promote_region][c].test(static_cast<size_t>(s))) set(pt.promote_zone[c], s);
        if (pp.promote_within >= 0) {  // gen_pawns: `promotion-squares REGION`
          BB keep{};
          for (int s = 0; s < p.squares; ++s)
            if (p.regions[pp.promote_within][c].test(static_cast<size_t>(s))) set(keep, s);
          pt.promote_zone[c] = pt.promote_zone[c] & keep;
        }
        pt.forbidden_zone[c] = zone(pp.forbidden_zone[c]);
        for (const PieceProgram::Leap& l : pp.leaps[c]) {
          const int ax = l.dx < 0 ? -l.dx : l.dx, ay = l.dy < 0 ? -l.dy : l.dy;
          if ((ax == 0 || ay == 0 || ax == ay) && (ax > 1 || ay > 1)) pt.line_jumps = true;
          for (int y = 0; y < p.height; ++y)
            for (int x = 0; x < p.width; ++x) {
              if (!on(p, x + l.dx, y + l.dy)) continue;
              int s = sq(p, x, y), to = sq(p, x + l.dx, y + l.dy);
              if (!in_region(p, l.from_region, c, s) || !in_region(p, pp.confine, c, to) ||
                  !in_region(p, l.to_region, c, to))
                continue;
              if (l.move) set(pt.leap_move[c][s], to);
              if (l.capture) {
                set(pt.leap_capture[c][s], to);
                set(pt.leap_capture_from[c][to], s);
                if (pp.gives_check) set(pt.check_from[c][to], s);
              }
              if (l.en_passant && (pp.ep_zone[c] >> (y + l.dy) & 1)) set(pt.ep_capture[c][s], to);
            }
        }
        for (const PieceProgram::Path& w : pp.paths[c])
          for (int y = 0; y < p.height; ++y)
            for (int x = 0; x < p.width; ++x) {
              const int s = sq(p, x, y);
              if (!in_region(p, w.from_region, c, s)) continue;
              // `confined`: a single (lame) leap ending outside the region is no move.
              if (pp.confine >= 0 && on(p, x + w.dx, y + w.dy) &&
                  !in_region(p, pp.confine, c, sq(p, x + w.dx, y + w.dy)))
                continue;
              typename PieceTables<BB>::Walk wk{
                  static_cast<uint32_t>(pt.walk_sq.size()), 0, BB{}, w.move, w.capture, w.hop};
              for (int k = 1, cx = x + w.dx, cy = y + w.dy; on(p, cx, cy) && (w.range == 0 || k <= w.range);
                   ++k, cx += w.dx, cy += w.dy) {
                if (!in_region(p, w.to_region, c, sq(p, cx, cy))) break;  // `region-betza ... to`
                pt.walk_sq.push_back(static_cast<int16_t>(sq(p, cx, cy)));
                // A hopper never lands on its walk's first square (the screen is before it).
                if (w.capture && (k > 1 || !w.hop)) set(pt.walk_from[c][sq(p, cx, cy)], s);
                ++wk.len;
              }
              if (!wk.len) continue;
              if (w.lame) {
                const int ax = std::abs(w.dx), ay = std::abs(w.dy), n = std::max(ax, ay);
                if (ax == 0 || ay == 0 || ax == ay) {
                  for (int k = 1; k < n; ++k) set(wk.block, sq(p, x + w.dx / n * k, y + w.dy / n * k));
                } else {
                  // N, Z (janggi's elephant): the orthogonal first step along the longer side,
                  // then diagonal steps outward (a (1,2) leap passes one square, a (2,3) two).
                  const int ux = ax > ay ? w.dx / ax : 0, uy = ax > ay ? 0 : w.dy / ay;
                  const int sx = w.dx / ax, sy = w.dy / ay;
                  for (int k = 0; k < std::min(ax, ay); ++k)
                    set(wk.block, sq(p, x + ux + k * sx, y + uy + k * sy));
                }
              }
              pt.walks[c][s].push_back(wk);
            }
        for (const PieceProgram::Leap& l : pp.region_leaps[c])
          for (int y = 0; y < p.height; ++y)
            for (int x = 0; x < p.width; ++x)
              if (on(p, x + l.dx, y + l.dy)) set(pt.region_move[c][sq(p, x, y)], sq(p, x + l.dx, y + l.dy));
        // gen_promote: where the piece has no move on the empty board (an optional
        // promotion is mandatory there). Walks, region leaps and specials count as moves.
        if (pp.promote_optional)
          for (int s = 0; s < p.squares; ++s) {
            bool moves = !pt.walks[c][s].empty() || !pp.region_leaps[c].empty() || pp.special() ||
                         static_cast<bool>(pt.leap_move[c][s]);
            for (int d = 0; d < 8 && !moves; ++d)
              moves = (pp.ride_move[c] >> d & 1) && static_cast<bool>(g.ray[d][s]);
            if (!moves) set(pt.immobile[c], s);
          }
        pt.teleport_to[c] = g.board_mask & ~zone(pp.teleport_except[c]);
        for (const PieceProgram::Leap& l : pp.own_leaps[c])
          for (int y = 0; y < p.height; ++y)
            for (int x = 0; x < p.width; ++x)
              if (on(p, x + l.dx, y + l.dy)) set(pt.own_capture[c][sq(p, x, y)], sq(p, x + l.dx, y + l.dy));
        if (c == 0)
          for (int y = 0; y < p.height; ++y)
            for (int x = 0; x < p.width; ++x)
              for (int d = 0; d < 8; ++d)
                if ((pp.borrow_dirs >> d & 1) && on(p, x + kDirDx[d], y + kDirDy[d]))
                  set(pt.lenders[sq(p, x, y)], sq(p, x + kDirDx[d], y + kDirDy[d]));
        if (c == 0 && (pp.captured_within > 0 || pp.rampage.self_beyond >= 0 || pp.around.reach > 0))
          for (int s = 0; s < p.squares; ++s)
            for (int s2 = 0; s2 < p.squares; ++s2) {
              const int dist =
                  std::max(std::abs(s % p.width - s2 % p.width), std::abs(s / p.width - s2 / p.width));
              if (dist <= pp.captured_within) set(pt.near[s], s2);
              if (dist <= pp.rampage.self_beyond) set(pt.rampage_near[s], s2);
              if (dist > 0 && dist <= pp.around.reach) set(pt.around[s], s2);
            }
        for (const PieceProgram::LameLeap& l : pp.lame[c]) {
          int steps = std::max(std::abs(l.dx), std::abs(l.dy));
          int ux = l.dx / steps, uy = l.dy / steps;
          for (int y = 0; y < p.height; ++y)
            for (int x = 0; x < p.width; ++x) {
              if (!(l.from >> y & 1) || !on(p, x + l.dx, y + l.dy)) continue;
              if (!in_region(p, pp.confine, c, sq(p, x + l.dx, y + l.dy))) continue;  // `confined`
              BB path{};
              if (!l.jumps)
                for (int k = 1; k < steps; ++k) set(path, sq(p, x + ux * k, y + uy * k));
              pt.initial_lame[c][sq(p, x, y)].push_back({sq(p, x + l.dx, y + l.dy), path});
            }
        }
      }
    }
    return tb;
  }

  // The absolute ranks of colour `color`'s relative ranks r.
  RankSet ranks(const Program& p, int color, const Range& r) const {
    RankSet b = 0;
    for (int k = std::max(1, r.lo); k <= r.hi && k <= p.height; ++k)
      b |= RankSet(1) << (color == 0 ? k - 1 : p.height - k);
    return b;
  }

  // Why the dead-position rule (generator.cpp, `insufficient`) is not sound for this
  // program, or "" when it is. The rule: no pieces but one royal a side and at most one
  // knight-mover, or one bishop-mover a side on squares of one colour. It is a theorem for
  // a king that moves as a chess king, on a board of at least 3 x 3, where checkmate is the
  // only loss: a mate needs the lone king's flight squares of the other colour than its
  // square covered, which neither a knight nor a bishop giving the check can do, nor the
  // enemy king (never adjacent), nor an own bishop (on the checked colour). Anything else
  // that can end the game (a royal capture, a region, a stalemate that loses, cards) or a
  // royal piece that moves otherwise (Knightmate's, whose mates with K+B exist) leaves the
  // question open, and nothing is declared.
  std::string dead_position_undecided(const Program& p) const {
    if (m_.unbounded) return "the board is unbounded";
    if (p.width < 3 || p.height < 3) return "the board is smaller than 3 x 3";
    if (m_.deck_loc.src) return "cards decide which piece moves";
    if (!m_.armies.empty()) return "the game has armies";
    if (!p.checkmate_loses || !p.stalemate_draw) return "checkmate is not the only loss";
    if (p.royal_capture) return "capturing a royal piece wins";
    if (p.invasion) return "reaching a region wins";
    if (!m_.royal_safe) return "a royal piece may be left attacked";
    int royals = 0;
    for (size_t k : used_) {
      const PieceDef& def = m_.pieces[k];
      if (!def.royal) continue;
      ++royals;
      if (!plain_piece(def) || !same_movement(def, "K"))
        return std::string("the royal piece `") + def.letter + "` does not move as a chess king";
    }
    if (royals != 1) return "the game has " + std::to_string(royals) + " royal piece types";
    return "";
  }

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
    p.expects = m_.expects;
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
      if (r.condition == "checkmate" && (r.result == "loss" || r.result == "win")) {
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
      if (p.royal_safe && (!p.checkmate_loses || !p.stalemate_draw))
        d_.error(m_.name_loc,
                 "a card game with `royal-safe` needs `checkmate -> loss` and `stalemate -> draw`");
      p.claim_repetition = m_.claim_repetition.value_or(0);
      p.claim_fifty = m_.claim_fifty.value_or(0);
      p.expects = m_.expects;
      return;
    }
    counted_ends(p);
    if (!checkmate_stated && p.royal_type >= 0)
      d_.error(m_.name_loc, "a royal piece without `checkmate -> loss` (or `-> win`) is not executable yet");
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
    p.expects = m_.expects;
  }
};

}  // namespace

std::shared_ptr<const Program> compile(const Model& m, Diagnostics& diags) {
  Compiler c(m, diags);
  return c.run();
}

}  // namespace arb::lang
