// The ChessMe position text (RULINGS.md section 2): a neutral record of a position and
// its parse/format, plus the seeded start position. No move logic here; every ChessMe
// engine reads and writes positions through this module so that their texts compare.
//
// Text: six fields separated by spaces.
//   1. pieces: comma-separated `<letter><square>`, upper case = White; the square is
//      algebraic (`c1`) when 0 <= x <= 25 and y >= 1, else `(x,y)`. Canonical order: rank
//      descending, then file ascending; `-` when no piece is in play.
//   2. side to move: `w` or `b`.
//   3. hands `WHITE/BLACK`: letters in the order K Q R B N P, then any other letter
//      alphabetically (upper case for White, lower case for Black), `-` for an empty hand;
//      at most TileRules::hand_size tiles each (3 in ChessMe).
//   4. draw piles `WHITE/BLACK`: in pile order, TOP FIRST (not sorted); `-` empty, `?`
//      unknown (a puzzle that does not say what is left).
//   5. capture piles `WHITE/BLACK`: White's pile holds the Black pieces White captured
//      (lower case), Black's the White pieces Black captured (upper case); order
//      K Q R B N P, `-` empty.
//   6. fullmove number, at least 1.
// Example, chessme_start(1):
//   `kc6,pa5,pb5,pc5,pd5,Pa2,Pb2,Pc2,Pd2,Kc1 w BNP/rbb RQRNPBPP/pppnpqrn -/- 1`
//
// parse_chessme accepts the multiset fields (pieces, hands, capture piles) in any order and
// formats them canonically, so format_chessme(parse_chessme(t)) == t for canonical text.
// It rejects, with PositionError(message, 0-based column): unknown letters (K Q R B N P and
// the letters of the rules' setup and tiles are known), a letter of the wrong case in a
// one-colour field, duplicate squares, missing fields, bad numbers, a hand over
// rules.hand_size tiles, a side without exactly one king on the board, more tiles of a type
// for one side than its set holds (the rules' tiles plus the side's setup pieces; ChessMe:
// K1 Q1 R2 B2 N2 P8, counted over its board pieces, hand, draw pile and the opponent's
// capture pile; a promotion exchange keeps these totals constant), and text after the last
// field. Fields may be separated by runs
// of spaces or tabs, and surrounding blanks are ignored, as in the FEN reader.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "arbiter/engine.hpp"

namespace arb {

// The tiles and hands of a rule set on the grid (RULINGS 2.3/2.4; `pile`, `setup` and
// `hand size N draw M` of a ruleset). The defaults are ChessMe's.
//   hand_size: the most tiles a hand may hold (ChessMe 3).
//   draw: the tiles drawn from the top of the shuffled pile into the hand at the start
//     (at most hand_size). During the game a placement is followed by drawing ONE tile
//     (the top of the own pile, if any remains and the hand holds fewer than hand_size),
//     whatever `draw` is: a hand refills one tile per tile played.
//   tiles: one side's pile before the shuffle and the deal, upper case.
//   setup: the pieces field of the start position; its pieces count in the set of each
//     side (the tile-count check) with the pile tiles.
struct TileRules {
  std::string tiles = "QRRBBNNPPPP";  // one side's pile tiles at the start (upper case), before the deal
  int hand_size = 3;                  // tiles a hand holds
  int draw = 3;                       // tiles drawn into the hand at the start
  std::string setup = "kc6,pa5,pb5,pc5,pd5,Pa2,Pb2,Pc2,Pd2,Kc1";  // RULINGS 2.2
};

struct ChessMePosition {
  std::vector<std::pair<Coord, char>> pieces;  // letter upper case = White
  Color side = Color::White;
  std::string hand[2];  // [White] upper-case letters, [Black] lower-case letters
  std::string pile[2];  // top first; meaningful only when pile_known
  bool pile_known[2] = {true, true};
  std::string captured[2];  // [White] lower-case letters it captured, [Black] upper-case
  int fullmove = 1;
};

// Parses the text above. The returned pieces are in canonical order, hands and capture
// piles in K Q R B N P order. Throws PositionError.
ChessMePosition parse_chessme(std::string_view text, const TileRules& rules = {});

// Writes the canonical text (sorts pieces, hands and capture piles; keeps pile order).
std::string format_chessme(const ChessMePosition& p);

// The start position of RULINGS.md 2.2 with seeded piles and hands (for the default rules;
// in general rules.setup, and rules.tiles shuffled, rules.draw of them dealt):
//   White pawns a2 b2 c2 d2, king c1; Black pawns a5 b5 c5 d5, king c6; White to move,
//   empty capture piles, fullmove 1.
//   Each side's 11 other tiles start as the sequence Q R R B B N N P P P P (index 0..10)
//   and are shuffled by Fisher-Yates driven by splitmix64:
//     state = seed for White, seed ^ 0x9E3779B97F4A7C15 for Black;
//     next(): state += 0x9E3779B97F4A7C15; z = state;
//             z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9; z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
//             return z ^ (z >> 31);
//     for i = 10 down to 1: j = next() % (i + 1); swap(tile[i], tile[j]).
//   The shuffled sequence is the pile, index 0 on top; the top three tiles (indices 0, 1,
//   2) go to the hand and the remaining eight stay in the pile in order.
// Throws PositionError when rules.draw is negative or exceeds rules.hand_size.
ChessMePosition chessme_start_position(uint64_t seed, const TileRules& rules = {});
// Position texts `start:SEED` stand for chessme_start(SEED); `start` alone for this seed.
constexpr uint64_t kChessMeDefaultSeed = 1;
// The shuffle above applied to any tile sequence (for rulesets that state their own piles).
std::string shuffle_tiles(std::string tiles, uint64_t seed, Color side);
std::string chessme_start(uint64_t seed, const TileRules& rules = {});

}  // namespace arb
