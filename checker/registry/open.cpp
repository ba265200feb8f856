// open(): open_engine() for a consumer that links no lang/ (open.hpp).
#include "registry/open.hpp"

#include <cctype>

#include "registry/engines.hpp"

namespace arb::registry {

namespace {

RulesetFacts facts_of_model(const lang::Model& m) {
  RulesetFacts f;
  f.placement_p = m.records.piece_first;
  f.agreement_draws = m.records.agreement_draws;
  f.dice_start = m.setup_kind == lang::SetupKind::Chess960;
  for (const lang::PieceDef& p : m.pieces) {
    f.piece_names[p.letter] = p.name;
    if (p.royal) f.royals.push_back(p.letter);
  }
  f.royals_apart = m.royals_apart;
  f.adjacency_rule = m.adjacency_rule;
  return f;
}

}  // namespace

Opened open(const EngineSpec& spec) {
  lang::Diagnostics diags;
  OpenedEngine o = open_engine(spec, diags);
  Opened r;
  r.engine = std::move(o.engine);
  r.make = std::move(o.make);
  r.variant = std::move(o.variant);
  if (o.compiled.model) r.facts = facts_of_model(*o.compiled.model);
  r.errors = diags.error_count();
  if (!diags.all().empty()) r.diagnostics = diags.render();
  return r;
}

}  // namespace arb::registry
