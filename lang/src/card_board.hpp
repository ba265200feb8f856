// The seam between the card layer (card_generator.cpp) and the bitboard generator
// (generator.cpp): the few board operations a card-driven turn needs. The card layer owns
// the deck, the piles and the hands; the generator owns the board and its moves.
#pragma once

#include <cstdint>
#include <vector>

#include "arbiter/engine.hpp"
#include "arbiter/lang/program.hpp"

namespace arb::lang {

// The card layer's bounds: the most cards a deck holds (the zones are fixed arrays, copied
// per action), the largest hand, and the index of the Again card in the text's kind order.
constexpr int kMaxCardDeck = 128;
constexpr int kMaxCardHand = 8;
constexpr size_t kAgainKind = 6;

class CardBoard {
 public:
  virtual ~CardBoard() = default;
  // Only pieces of the types in `mask` (bit t: type t) move; castling is a move of the
  // royal type. kAllTypes restores the unrestricted generator.
  static constexpr uint32_t kAllTypes = 0xFFFFFFFFu;
  virtual void set_move_types(uint32_t mask) = 0;
  // Legal moves under the current mask, counted or listed (as the generator's actions).
  virtual uint64_t count_moves() = 0;
  virtual void list_moves(std::vector<Action>& out) = 0;
  // The moves under the mask by movement alone, royal safety not tested (a pinned piece's
  // move, a king's step into check): Engine::pseudo_legal_actions.
  virtual void list_pseudo_moves(std::vector<Action>& out) = 0;
  // A turn without a move (a lost turn, a redraw): the side changes, the clock advances,
  // en passant lapses. Undone by Engine::undo().
  virtual void pass_turn() = 0;
  // Whether side c (0 White, 1 Black) still has a royal piece on the board.
  virtual bool has_royal(int c) const = 0;
  // Whether the side to move's royal piece is attacked (false without royal-safe).
  virtual bool in_check() = 0;
};

}  // namespace arb::lang
