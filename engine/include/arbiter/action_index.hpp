// The canonical texts of a position's legal actions, written once, for a caller that reads
// many texts in one position: parse_action otherwise writes every legal action's text for
// each text it reads (amazons: some 2,000 actions a node, read back 128 times by the property
// run's read-back check).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "arbiter/engine.hpp"

namespace arb {

class ActionTextIndex {
 public:
  // infos[i] describes the i-th legal action of `e`'s current position; the texts are
  // written in the engine's own form (uci(infos[i], e.chess960())).
  ActionTextIndex(const Engine& e, const std::vector<ActionInfo>& infos);
  // The first i (in the order of `infos`) whose text is `text`, else nullopt.
  std::optional<size_t> find(std::string_view text) const;

 private:
  std::vector<std::pair<std::string, size_t>> sorted_;  // (text, i), by text then i
};

// parse_action(e, text, legal, infos) with the exact canonical texts looked up in `index`
// (made from the same `infos`): the same answer for every text.
std::optional<Action> parse_action(Engine& e, std::string_view text, const std::vector<Action>& legal,
                                   const std::vector<ActionInfo>& infos, const ActionTextIndex& index);

}  // namespace arb
