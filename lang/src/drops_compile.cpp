// The compile step of hands filled by captures and of drop restrictions (drops.hpp).
#include <string>

#include "drops.hpp"

namespace arb::lang {

void compile_hands(const Model& m, const std::vector<int>& used, Program& p, Diagnostics& d) {
  const ConstructUse* hand = nullptr;
  for (const ConstructUse& u : m.constructs)
    if (u.id == ConstructId::CapturesToHand) hand = &u;
  for (int t = 0; t < p.ntypes; ++t) {
    const PieceDef& def = m.pieces[used[t]];
    if (const ConstructUse* u = def.find(ConstructId::Drop)) {
      p.types[t].drop_unique_file = u->has("unique-on-file");
      p.types[t].drop_no_mate = u->has("no-mate");
      if (u->has("per-file")) p.types[t].drop_per_file = static_cast<int>(u->arg("per-file").num);
      if (!p.action_place)
        d.error(u->loc, "`drop` restricts placements, but the turn has none",
                "add `action move or place` to the `turn` block");
    }
  }
  if (!hand) return;
  p.capture_to_hand = true;
  p.has_reserve = true;
  p.hand_marks = !hand->has("keep-promoted");
  p.hand_to_partner = hand->has("partner");
  // A promoted piece returns as the type that promotes to it: that type must be unique.
  for (int t = 0; t < p.ntypes; ++t) p.demote[t] = static_cast<int8_t>(t);
  for (int u = 0; u < p.ntypes && p.hand_marks; ++u)
    for (char c : p.types[u].promote_to) {
      const int to = static_cast<int>(c);
      if (p.demote[to] != to && p.demote[to] != u)
        d.error(hand->loc,
                std::string("`captures-to-hand`: `") + p.letters[to] + "` is promoted to from both `" +
                    p.letters[p.demote[to]] + "` and `" + p.letters[u] +
                    "`, so a captured one has no single base",
                "let one piece type promote to it");
      else if (to != u)
        p.demote[to] = static_cast<int8_t>(u);
    }
  // `plus-marks`: each promoted type is written `+BASE` (one base, one promoted type each).
  p.plus_of.fill(-1);
  p.plus_base.fill(-1);
  if (hand->has("plus-marks")) {
    if (!p.hand_marks)
      d.error(hand->loc,
              "`captures-to-hand keep-promoted plus-marks`: `+` marks a promoted piece, which "
              "`keep-promoted` does not track");
    p.plus_marks = true;
    for (int u = 0; u < p.ntypes; ++u) {
      const std::string& to = p.types[u].promote_to;
      if (to.empty()) continue;
      if (to.size() > 1)
        d.error(hand->loc,
                std::string("`captures-to-hand plus-marks`: `") + p.letters[u] +
                    "` promotes to several types, so `+" + p.letters[u] + "` names none",
                "let it promote to one type");
      const int t = static_cast<int>(to[0]);
      p.plus_of[u] = static_cast<int8_t>(t);
      p.plus_base[t] = static_cast<int8_t>(u);
    }
  }
  // Effects that remove pieces without a capture into the hand are not run with it.
  for (int t = 0; t < p.ntypes; ++t) {
    const PieceProgram& pp = p.types[t];
    if (pp.explodes() || pp.whirlwind() || pp.rampage.on() || pp.strike.on() || !pp.own_leaps[0].empty())
      d.error(hand->loc,
              std::string("`captures-to-hand` with `") + p.letters[t] +
                  "`'s removing effect (explosion, whirlwind, rampage, strike, `d`) is not executable yet by "
                  "the bitboard back end");
  }
  if (p.royal_capture)
    d.error(hand->loc,
            "`captures-to-hand` with `royal-capture` is not executable yet by the bitboard back end");
  if (!p.action_place)
    d.error(hand->loc, "`captures-to-hand` fills a reserve that no action empties",
            "add `action move or place` to the `turn` block");
}

}  // namespace arb::lang
