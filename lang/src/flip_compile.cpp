// The compile step of flipping pieces and passes (issue 24: ataxx, Reversi): `converts` on
// pieces, the placement conditions `adjacent-to own`, `encloses [opening REGION]` and
// `supply unlimited`, `pass when-blocked` in the turn, `board-full` and `passes N` in the
// end block. The generator's part is gen_flip.hpp.
#include <string>

#include "flip.hpp"

namespace arb::lang {

namespace {
// Program::regions' index of a region name: the built-in halves, then the `region`
// statements in order (as compile.cpp numbers them; sema admits only known names).
int region_index(const Model& m, const std::string& name) {
  if (name == "own-half") return 0;
  if (name == "enemy-half") return 1;
  for (size_t i = 0; i < m.regions.size(); ++i)
    if (m.regions[i].name == name) return 2 + static_cast<int>(i);
  return -1;
}
}  // namespace

void compile_flipping(const Model& m, const std::vector<int>& used, Program& p, Diagnostics& d) {
  using Removal = PieceProgram::Removal;
  Program::Flips& f = p.flips;
  for (int t = 0; t < p.ntypes; ++t) {
    const PieceDef& def = m.pieces[used[t]];
    if (const ConstructUse* im = def.find(ConstructId::Immobile); im && !def.betza.empty())
      d.error(im->loc, "piece `" + def.name + "` is `immobile` but has `betza` moves", "state one of them");
    const ConstructUse* u = def.find(ConstructId::Converts);
    if (!u) continue;
    Removal& r = p.types[t].convert;
    r.trigger = Removal::Trigger::Land;
    r.convert = true;
    if (u->arg("").text == "adjacent") {
      r.victims = Removal::Victims::Around;
      r.reach = 1;
    } else {
      r.victims = Removal::Victims::Enclosed;
    }
    f.converts = true;
    const PieceProgram& pp = p.types[t];
    if (pp.explodes() || pp.whirlwind() || pp.rampage.on() || pp.strike.on() || !pp.own_leaps[0].empty())
      d.error(u->loc,
              "`converts` with a removing effect (explosion, whirlwind, rampage, strike, `d`) is not "
              "executable yet "
              "by the bitboard back end");
    if (def.royal || p.royal_type >= 0)
      d.error(u->loc,
              "`converts` with a royal piece in the ruleset is not executable yet by the bitboard back end",
              "a converted royal piece would change sides; state the game without `royal`");
  }
  const ConstructUse* supply = nullptr;
  const ConstructUse* place_rule = nullptr;
  for (const ConstructUse& u : m.constructs) {
    switch (u.id) {
      case ConstructId::PlaceAdjacentOwn:
        f.place_adjacent_own = true;
        place_rule = &u;
        break;
      case ConstructId::PlaceEncloses:
        f.place_encloses = true;
        place_rule = &u;
        if (u.has("opening")) f.opening_region = region_index(m, u.arg("opening").text);
        break;
      case ConstructId::PlaceSupply:
        f.supply_unlimited = true;
        supply = &u;
        break;
      case ConstructId::TurnPass:
        if (!u.has("")) break;  // a pass at any time: janggi's (pass_compile.cpp)
        f.pass = true;
        if (p.royal_type >= 0)
          d.error(
              u.loc, "`pass when-blocked` with a royal piece is not executable yet by the bitboard back end",
              "a blocked side with a royal piece is mated or stalemated: state `checkmate` and `stalemate`");
        break;
      case ConstructId::EndBoardFull:
        f.end_board_full = true;
        break;
      case ConstructId::EndPasses:
        f.end_passes = static_cast<int>(u.arg("").num);
        if (!f.pass)
          for (const ConstructUse& v : m.constructs)
            f.pass = f.pass || (v.id == ConstructId::TurnPass && v.has(""));
        if (!f.pass)
          d.error(u.loc, "`passes` counts passes, but the turn has none",
                  "add `pass when-blocked` to the `turn` block");
        break;
      default:
        break;
    }
  }
  if ((place_rule || supply) && !p.action_place)
    d.error((place_rule ? place_rule : supply)->loc,
            "`" + (place_rule ? place_rule : supply)->def().keyword +
                "` restricts placements, but the turn has none",
            "add `action move or place` (or `action place`) to the `turn` block");
  if (supply && (p.has_reserve || p.capture_to_hand))
    d.error(supply->loc,
            "`supply unlimited` with a `reserve` or `captures-to-hand`: state one source of placements");
  if (supply && p.place_first_royal)
    d.error(supply->loc,
            "`supply unlimited` with `first royal` is not executable yet by the bitboard back end");
}

}  // namespace arb::lang
