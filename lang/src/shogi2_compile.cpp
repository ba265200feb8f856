// The compile steps of the shogi family's primitives (shogi2.hpp).
#include "shogi2.hpp"

namespace arb::lang {

bool black_rotated(const Model& m) {
  bool rotated = false;
  for (const ConstructUse& u : m.constructs)
    if (u.id == ConstructId::Orientation) rotated = u.arg("").text == "rotated";  // the last one counts
  return rotated;
}

void compile_flips(const Model& m, const std::vector<int>& used, Program& p, Diagnostics& d) {
  for (int t = 0; t < p.ntypes; ++t) {
    const PieceDef& def = m.pieces[used[t]];
    PieceProgram& pp = p.types[t];
    if (const ConstructUse* u = def.find(ConstructId::Demotes)) {
      if (!p.capture_to_hand || !p.hand_marks || p.demote[t] == t) {
        d.error(u->loc, std::string("`demotes`: no piece promotes to `") + def.letter + "`",
                "state `promotes-to " + std::string(1, def.letter) +
                    " in ...` on the piece it turns back into, and `captures-to-hand plus-marks`");
        continue;
      }
      pp.promote_to = std::string(1, static_cast<char>(p.demote[t]));
      pp.promote_choices = {pp.promote_to, pp.promote_to};
    }
    if (const ConstructUse* u = def.find(ConstructId::Drop); u && u->has("opposite-colours"))
      pp.drop_opposite_colours = true;
    if (const ConstructUse* u = def.find(ConstructId::Drop); u && u->has("promoted")) {
      if (!def.find(ConstructId::PromoteZone) || !p.capture_to_hand || !p.hand_marks)
        d.error(u->arg("promoted").loc,
                std::string("`drop promoted`: `") + def.letter + "` promotes to no type (`promotes-to`)",
                "needs `promotes-to LETTER in REGION` and `captures-to-hand plus-marks`");
      else
        pp.drop_promoted = true;
    }
  }
}

void compile_drop_rules(const Model& m, Program& p, Diagnostics& d) {
  for (const ConstructUse& u : m.constructs) {
    if (u.id == ConstructId::MustDrop && !p.action_place)
      d.error(u.loc, "`must-drop`: the turn has no drops", "add `action move or place` to the `turn` block");
    if (u.id == ConstructId::CastlingByDrop && (!p.action_place || !p.castling))
      d.error(u.loc, "`by-drop`: castling rights gained by drops need castling and drops");
  }
}

}  // namespace arb::lang
