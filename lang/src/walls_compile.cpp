// The compile step of wall squares: `walls [placed RULE] [in REGION]` and `petrify` (walls.hpp).
#include <string>

#include "walls.hpp"

namespace arb::lang {

void compile_walls(const Model& m, const std::vector<int>& used, Program& p, Diagnostics& d,
                   const std::function<int(const std::string&)>& region_of) {
  using Rule = Program::WallRule;
  const ConstructUse* walls = nullptr;
  for (const ConstructUse& u : m.constructs)
    if (u.id == ConstructId::Walls) walls = &u;
  for (int t = 0; t < p.ntypes; ++t) {
    const ConstructUse* u = m.pieces[used[t]].find(ConstructId::Petrify);
    if (!u) continue;
    const PieceProgram& pp = p.types[t];
    // A royal piece turned into a wall would leave its side without it: Fairy-Stockfish
    // forbids such a capture; state it as `captures none` instead.
    if (pp.royal)
      d.error(u->loc, "`petrify` on a royal piece is not executable: its captures would remove it",
              "give the royal piece `captures none` (it then captures and checks nothing)");
    else if (pp.explodes() || pp.special() || pp.rampage.on() || pp.strike.on())
      d.error(u->loc, "`petrify` with explosions, rampages, strikes or Chess 2 moves is not executable yet");
    else if (p.capture_to_hand)
      d.error(u->loc, "`petrify` with `captures-to-hand` is not executable yet");
    else
      p.petrify_types |= 1u << t;
  }
  if (p.petrify_types) p.walls = true;  // a petrified piece is a wall square in the position
  if (!walls) return;
  p.walls = true;
  if (walls->has("in") && !walls->has("placed"))
    d.error(walls->arg("in").loc,
            "`walls in REGION` says where placed walls go, but the walls are not `placed`",
            "add `placed arrow|duck|past|static|edge`, or drop `in`");
  if (!walls->has("placed")) return;
  const std::string& rule = walls->arg("placed").text;
  p.wall_rule = rule == "arrow"    ? Rule::Arrow
                : rule == "duck"   ? Rule::Duck
                : rule == "past"   ? Rule::Past
                : rule == "static" ? Rule::Static
                                   : Rule::Edge;
  if (walls->has("in")) p.wall_region = region_of(walls->arg("in").text);
  // What the wall layer does not combine with yet: each is a located error, never a silent
  // change. Legality is judged on the move alone, so no royal piece may need protecting.
  auto refuse = [&](const std::string& what, const std::string& hint) {
    d.error(walls->arg("placed").loc, "`walls placed` with " + what + " is not executable yet", hint);
  };
  if (p.royal_type >= 0 && p.royal_safe)
    refuse("`royal-safe` (a placed wall could block a check)",
           "state the king as a non-royal piece with an `extinction` end (duck chess)");
  if (p.action_place || p.has_reserve) refuse("placements or reserves", "");
  if (p.king_turn[0] || p.king_turn[1] || p.turn.size() > 1) refuse("a turn of several phases", "");
  if (m.deck_loc.src) refuse("cards", "");
  if (p.petrify_types) refuse("`petrify`", "");
  for (int t = 0; t < p.ntypes; ++t) {
    const PieceProgram& pp = p.types[t];
    if (pp.explodes() || pp.special() || pp.rampage.on() || pp.strike.on())
      refuse("explosions, rampages, strikes or Chess 2 moves", "");
    if (p.wall_rule == Rule::Arrow && (!pp.paths[0].empty() || !pp.limited[0].empty() || !pp.lame[0].empty()))
      d.error(m.pieces[used[t]].loc,
              "`walls placed arrow` aims the wall along the moved piece's leaps and unit rides; piece `" +
                  std::string(1, p.letters[t]) +
                  "` has other moves (hoppers, lame leaps, limited or long rides)",
              "not executable yet");
  }
}

}  // namespace arb::lang
