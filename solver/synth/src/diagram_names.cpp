// The diagram's piece names from a compiled ruleset's model (diagram.hpp): the one part of
// the diagrams that reads lang/, so it is built into arbiter_synth, not arbiter_diagram.
#include <cctype>

#include "arbiter/lang/model.hpp"
#include "arbiter/synth/diagram.hpp"

namespace arb::synth {

std::map<char, std::string> piece_names(const lang::Model& m) {
  std::map<char, std::string> out;
  for (const auto& p : m.pieces)
    if (p.letter) out[static_cast<char>(std::toupper(static_cast<unsigned char>(p.letter)))] = p.name;
  for (const auto& c : m.deck_cards) {
    const char up = static_cast<char>(std::toupper(static_cast<unsigned char>(c.letter)));
    if (c.letter && !out.count(up)) out[up] = c.name + " (card)";
  }
  return out;
}

}  // namespace arb::synth
