// The compile step of janggi's primitives (pass_compile.hpp).
#include "pass_compile.hpp"

#include <string>

namespace arb::lang {

namespace {

// The type mask of a LETTERS argument; a letter no compiled piece has is an error at it.
uint32_t type_mask(const ConstructUse& u, const Program& p, Diagnostics& d) {
  uint32_t mask = 0;
  for (const std::string& w : u.arg("").words)
    for (char c : w) {
      const size_t t = p.letters.find(c);
      if (t == std::string::npos)
        d.error(u.arg("").loc,
                "`" + u.def().keyword + "`: no compiled piece has the letter `" + std::string(1, c) + "`");
      else
        mask |= 1u << t;
    }
  return mask;
}

}  // namespace

void compile_pass_rules(const Model& m, const std::vector<int>& used, Program& p, Diagnostics& d) {
  for (int t = 0; t < p.ntypes; ++t) {
    const PieceDef& def = m.pieces[used[t]];
    PieceProgram& pp = p.types[t];
    for (const ConstructUse& u : def.constructs) {
      if (u.id == ConstructId::HopsNotOver) {
        pp.screen_not = type_mask(u, p, d);
        bool hops = false;
        for (const PieceProgram::Path& w : pp.paths[0]) hops = hops || w.hop;
        if (!hops)
          d.error(u.loc,
                  "`hops-not-over` restricts screens, but `" + std::string(1, p.letters[t]) + "` never hops",
                  "give it a hopper's Betza (`pR`, `mRcpR`, `gQ`)");
      } else if (u.id == ConstructId::NeverCaptures) {
        pp.capture_not = type_mask(u, p, d);
      } else if (u.id == ConstructId::Points) {
        pp.points = static_cast<int>(u.arg("").num);
      }
    }
  }
  const ConstructUse* counting = nullptr;
  std::vector<const ConstructUse*> counted;
  for (const ConstructUse& u : m.constructs) {
    switch (u.id) {
      case ConstructId::TurnPass:
        if (u.has("")) break;  // `pass when-blocked`: flip_compile.cpp
        p.pass = true;
        if (!p.action_move)
          d.error(u.loc, "`pass` stands instead of an action, but the turn has no `action move`",
                  "write `turn { action move; pass }`");
        break;
      case ConstructId::EndDoublePass:
      case ConstructId::EndRoyalsFacing: {
        const int value = u.arg("->").text == "counting" ? Program::kCounted : 0;
        (u.id == ConstructId::EndDoublePass ? p.double_pass : p.royals_facing) = value;
        if (value == Program::kCounted) counted.push_back(&u);
        if (!p.pass)
          d.error(u.loc, "`" + u.def().keyword + "` ends the game on a pass, but the turn has no `pass`",
                  "write `turn { action move; pass }` (the `turn` block before the `end` block)");
        if (u.id == ConstructId::EndRoyalsFacing && p.royal_type < 0)
          d.error(u.loc, "`royals-facing` needs a royal piece");
        break;
      }
      case ConstructId::EndCounting:
        counting = &u;
        p.counting_needs = static_cast<int>(u.arg("white-needs").num);
        break;
      default:
        break;
    }
  }
  if (!counting)
    for (const ConstructUse* u : counted)
      d.error(u->arg("->").loc, "`-> counting` needs a `counting white-needs N` statement in the `end` block",
              "state how a count is decided, or end with `-> draw`");
}

}  // namespace arb::lang
