// The No Stress Chess position text (RULINGS.md section 3): a neutral record of a position,
// its parse/format, the seeded card shuffle and the seeded start position. No move logic
// here; every No Stress Chess engine reads and writes positions through this module so
// that their texts compare, and every engine gives the fields below the meaning written
// here (when a draw happens, when a position is a chance node).
//
// ---------------------------------------------------------------------------------------
// Text: twelve to fourteen fields separated by runs of spaces or tabs (surrounding blanks
// are ignored), in this order:
//
//   <board> <side> <castling> <ep> <halfmove> <fullmove> level:L pile:CARDS
//   wdiscard:CARDS bdiscard:CARDS whand:CARDS bhand:CARDS [reshuffle:SEED] [pending:N]
//
// 1-6. A full FEN (all six fields required; pieces KQRBNP, upper case White). The halfmove
//    clock counts complete turns (a pass and a redraw count too) since the last pawn move
//    or capture; the fullmove number grows after Black's turn.
//    Levels 1, 2, 3: castling and en passant do not exist; both fields must be `-`.
//    Advanced: castling is a subset of `KQkq` (written in that order) and needs the king on
//    e1/e8 and the rook on h/a of its back rank; an en-passant square must lie on rank 6
//    when White moves, rank 3 when Black moves. (Engines write the square only when a pawn
//    of the side to move could legally capture there by chess rules, cards ignored, as the
//    chess FEN convention of engine/README.md does, and drop it otherwise when they load.)
//    Board checks: at most one king per side; the side not to move has exactly one; the
//    side to move may have none only when the game has just ended by a royal capture
//    (then `pending` must be absent). No pawn on its own first rank (White rank 1, Black
//    rank 8); at the advanced level no pawn on rank 1 or 8 at all (promotion is forced);
//    at levels 1-3 a pawn on the far rank stays there (RULINGS 3.6).
// 7. `level:L`, L one of `1`, `2`, `3`, `advanced`. Hand size H: level 1 none (0), level 2
//    three, level 3 and advanced five.
// 8-12. Card zones. CARDS is `-` (empty), or card letters from `PNBRQKA` (K = King card,
//    A = "Move Same Type of Piece Again"), optionally followed by `?N` (N >= 1 unknown
//    cards), or `?N` alone. Known letters always come before the unknown part:
//    - pile: the shared draw pile, TOP FIRST: `PN?40` is a Pawn on top, then a Knight, then
//      40 cards whose order and kinds the position does not say.
//    - wdiscard, bdiscard: the discard piles, BOTTOM TO TOP (the last letter is the top).
//      Discard piles are face up: `?` is not allowed there.
//    - whand, bhand: the hands, in hand order (the order in which the cards arrived, the
//      first letter the oldest); an unknown part stands for the newest cards.
//    The deck is 56 cards: 11 P, 8 N, 8 B, 8 R, 8 Q, 7 K, 6 A (CardRules below may state
//    another deck, and another hand size H for every level). The unknown cards (all `?`
//    parts together, the "unknown pool") are the deck minus every known card of every zone.
//    Rejected: more known cards of a kind than the deck holds, a total (known + unknown)
//    other than 56, and hand sizes the turn cannot produce:
//      the side not to move holds exactly H cards;
//      the side to move holds H cards (its turn's draw is still to come) or H + 1 (it has
//      drawn and now acts), or, with `pending:N`, exactly H - N cards.
// 13. `reshuffle:SEED` (optional, SEED a decimal 64-bit number): the order of the next
//    reshuffle is fixed. A reshuffle happens only when a card must be drawn from an empty
//    pile (known and unknown parts both empty); it gathers the White discard pile (bottom
//    to top) followed by the Black discard pile (bottom to top), applies
//    shuffle_cards(cards, SEED), makes the result the pile (index 0 on top), empties both
//    discard piles and replaces SEED by SEED + 1 (modulo 2^64).
//    Without the field the reshuffle's order is not fixed: the pile becomes `?N`, N the
//    number of gathered cards, both discard piles are emptied, and every draw from it is a
//    chance event.
// 14. `pending:N` (optional, 1 <= N <= H; never written as 0): the side to move has redrawn
//    and still has to draw N cards into its hand from the pile, whose known part is then
//    empty and whose unknown part is not (otherwise the draws would have been made). Its
//    turn ends with the last of these draws.
//
// Example, nostress_start_position(NoStressLevel::Three, true, 1) (see below for the deal):
//   `rnbqkbnr/ppp2ppp/4p3/3p4/3P4/4P3/PPP2PPP/RNBQKBNR w - - 0 1 level:3
//    pile:NPKPAQBPRBNAKNQQRRRANRBARQPQAQBKRABPPBPKNPNNBP wdiscard:- bdiscard:- whand:PQKNR
//    bhand:QBPKK reshuffle:2` (one line).
// Mid-game, White having drawn and about to act, Black's hand unknown:
//   `4k3/8/8/8/8/8/8/1N2K3 w - - 0 9 level:2 pile:?46 wdiscard:PA bdiscard:R whand:NBBQ bhand:?3`
//
// ---------------------------------------------------------------------------------------
// Turns and draws (RULINGS 3.3, 3.4, 3.8): what every engine does with these fields.
//
// A turn of the side to move P: draw one card into P's hand (reshuffling first when the
// pile is empty), then act: play a card (first copy of its kind in hand order) onto P's
// discard pile with a move of that kind, play a card whose kind allows no move (a pass), or
// redraw (levels 2, 3, advanced): put the whole hand on P's discard pile in hand order (the
// last card ends on top) and draw H new cards one at a time, reshuffling whenever the pile
// is empty (the discarded hand included). At level 1 the drawn card is the turned card: it
// goes through the hand (H = 0, so the hand then holds that one card) onto the discard pile.
// When the card to be drawn is known (the pile's known part is not empty, or the pile is
// empty and `reshuffle:SEED` fixes the reshuffle), the draw is part of P's action: the
// action is played from the position with H cards in hand, and no chance event shows.
//
// Chance nodes: a position that is not decided (royal capture; checkmate or stalemate at
// the advanced level) is a chance node when, checked in this order,
//   a. `pending:N` is present: the outcome is the next card of the redraw; when it is the
//      last, P's turn ends (the side to move changes, the counters advance);
//   b. P's hand has an unknown part: the outcome reveals P's oldest unknown card (a player
//      knows his hand before he acts);
//   c. P holds H cards and the card to be drawn is not known: the pile's known part is empty
//      and either its unknown part is not, or the pile is empty and `reshuffle` is absent
//      (the outcome then makes the reshuffle, as above, and draws from it). The outcome
//      puts the drawn card at the end of P's hand; P then acts from the position with H + 1
//      cards.
// The outcomes of a chance node are the card kinds with a positive count in the unknown
// pool (after the reshuffle of case c), in the order P N B R Q K A, each weighted by its
// count divided by the pool's size. The side to move of a chance node is P. Whenever a
// chance outcome is applied, the draws that follow are made at once as far as their cards
// are known (a redraw may end at once after a reshuffle with a seed).
//
// ---------------------------------------------------------------------------------------
// Merged chance (the compiled engine only, with Engine::set_merged_chance on, as the
// solver's expected and adversarial modes run it; parse_nostress does not read it):
// draws whose order nothing observes yet are one chance node whose outcomes are
// multisets (hypergeometric weights): the pending draws of a redraw that the unknown pile
// covers, and the reveal of a hand's unknown part. Their cards stay "open": their arrival
// order is not fixed. In a hand field, `[UNO/GONE]` marks them at their place in hand
// order: UNO the open cards (kind order PNBRQKA), GONE the copies of that draw played since
// (each the first copy of its kind; they weigh the open order, which is no longer uniform;
// `/GONE` absent when none). `whand:N[PRR/Q]B`: N, then P R R in an open order, then B.
// The order is drawn when it shows: a redraw of a hand with open cards first makes the
// position a chance node over their orders, marked by a last field `redrawing` (the side
// to move holds H + 1 cards and has chosen to redraw); the outcome discards the hand in
// that order and the redraw goes on. Values over the tree equal the one-card draws'.
//
// ---------------------------------------------------------------------------------------
// Start: `start` / `start:SEED` (engines read these; the engine's `seed` option is the
// default SEED): the deck in the order P*11 N*8 B*8 R*8 Q*8 K*7 A*6 (index 0 first) is
// shuffled by shuffle_cards(deck, SEED); cards 0 .. 2H-1 are dealt one at a time,
// alternately, White first (White gets cards 0, 2, 4, ..., Black 1, 3, 5, ...), in that
// order into the hands; the rest (index 2H first) is the pile, top first. Discard piles
// are empty, the position carries `reshuffle:SEED+1`, White is to move, halfmove 0,
// fullmove 1. Board: with advanced pawns (RULINGS 3.1, the default)
// `rnbqkbnr/ppp2ppp/4p3/3p4/3P4/4P3/PPP2PPP/RNBQKBNR`, otherwise the chess setup; castling
// `KQkq` at the advanced level (kings and rooks stand on their squares and have not moved),
// `-` at levels 1-3.
//
// shuffle_cards(cards, seed): Fisher-Yates driven by splitmix64:
//   state = seed;
//   next(): state += 0x9E3779B97F4A7C15; z = state;
//           z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9; z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
//           return z ^ (z >> 31);
//   for i = n-1 down to 1: j = next() % (i + 1); swap(cards[i], cards[j]).
//
// Canonical text: format_nostress writes exactly the grammar above (FEN through format_fen,
// castling in KQkq order, `reshuffle` and `pending` only when present), so
// parse_nostress(format_nostress(p)) == p and format_nostress(parse_nostress(t)) == t for
// canonical t. Errors are PositionError(message, 0-based column of the fault).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "arbiter/engine.hpp"
#include "arbiter/fen.hpp"

namespace arb {

enum class NoStressLevel : uint8_t { One = 1, Two = 2, Three = 3, Advanced = 4 };

// `1`, `2`, `3`, `advanced`.
std::string nostress_level_name(NoStressLevel l);
// Parses the names above; nullopt for anything else.
std::optional<NoStressLevel> parse_nostress_level(std::string_view s);
// Cards in a hand between turns: 0, 3, 5, 5.
int nostress_hand_size(NoStressLevel l);

// The deck: kinds in the order P N B R Q K A and their counts 11 8 8 8 8 7 6.
constexpr std::string_view kNoStressCardKinds = "PNBRQKA";
constexpr std::array<int, 7> kNoStressDeckCounts = {11, 8, 8, 8, 8, 7, 6};
constexpr int kNoStressDeckSize = 56;
// Index of a card letter in PNBRQKA, or -1.
int nostress_card_index(char c);

// A card zone: known letters (in the zone's order) followed by `unknown` unknown cards.
struct NoStressCards {
  std::string known;
  int unknown = 0;
  int size() const { return static_cast<int>(known.size()) + unknown; }
  friend bool operator==(const NoStressCards& a, const NoStressCards& b) {
    return a.known == b.known && a.unknown == b.unknown;
  }
};

struct NoStressPosition {
  FenFields board;  // 8x8; castling "-" or a subset of KQkq in that order
  NoStressLevel level = NoStressLevel::Three;
  NoStressCards pile;      // top first
  std::string discard[2];  // [White], [Black]; bottom to top, always known
  NoStressCards hand[2];   // [White], [Black]; hand order
  std::optional<uint64_t> reshuffle_seed;
  int pending = 0;

  friend bool operator==(const NoStressPosition& a, const NoStressPosition& b);
};

// The cards of a game: the deck's count per kind and the hand size. The default is No Stress
// Chess's (56 cards, the level's hand); a ruleset may state another deck and hand (lang/README
// "Cards"). The text's grammar is the same for every deck; card totals, known-card counts and
// hand sizes are checked against these rules instead of the 56-card deck and the level's hand.
// Bounds (else std::invalid_argument): counts 0..kNoStressMaxKindCount, a deck of at least one
// card, hand_size -1 or 0..8, and at least 2 * hand + 1 cards (a deal plus the first draw).
constexpr int kNoStressMaxKindCount = 99;
struct CardRules {
  std::array<int, 7> deck =
      kNoStressDeckCounts;  // count per kind, in kNoStressCardKinds order (P N B R Q K A)
  int hand_size = -1;       // -1: the level's (nostress_hand_size); else 0..8
  int deck_size() const;    // sum of deck
  // The hand size at `level`: hand_size, or the level's when it is -1.
  int hand_at(NoStressLevel level) const;
  bool is_default() const { return deck == kNoStressDeckCounts && hand_size == -1; }
  // Throws std::invalid_argument when the bounds above do not hold (for `level`'s hand).
  void validate(NoStressLevel level) const;
};

// Parses the text above. Throws PositionError.
NoStressPosition parse_nostress(std::string_view text, const CardRules& rules = {});

// Writes the canonical text.
std::string format_nostress(const NoStressPosition& p);

// The shuffle above (returns the shuffled sequence).
std::string shuffle_cards(std::string cards, uint64_t seed);

// The deck's cards in kind order, each kind repeated its count: by default the 56 cards
// P*11 N*8 B*8 R*8 Q*8 K*7 A*6.
std::string nostress_deck(const CardRules& rules = {});

// The start position described above, dealt from rules' deck with rules' hand size.
NoStressPosition nostress_start_position(NoStressLevel level, bool advanced_pawns, uint64_t seed,
                                         const CardRules& rules = {});

}  // namespace arb
