// Position-text mutations for the differential checker, and the smaller texts its shrinker
// tries. Nothing here knows a variant: the code dispatches on the text format alone
// (FEN with optional bracketed reserves, or the ChessMe text of arbiter/chessme_text.hpp)
// and leaves validation to the engines, which accept or reject what it makes; a ChessMe
// text is the exception: one the ChessMe parser refuses (a hand past its size, more tiles
// of a type than a set holds) is dropped, so that every text `fuzz` prints `moves` reads.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace arb::fuzz {

// A source of choices: returns a value in [0, n) for n >= 1. The fuzzer draws from its
// seeded generator; the libFuzzer target reads the input bytes.
using Choose = std::function<uint64_t(uint64_t n)>;

enum class TextFormat { Fen, ChessMe, Other };
TextFormat detect_format(const std::string& text);

// The piece letters (upper case, each once, in order of appearance) in a position text:
// board and reserve for FEN; board, hands, piles and capture piles for ChessMe.
std::string piece_alphabet(const std::string& text);

// One mutation of a position text: a piece moved, added or removed; for FEN the side to
// move flipped, the halfmove clock near the fifty-move limit, a reserve piece added or
// removed; for ChessMe a hand tile, a pile or a capture pile changed; for No Stress Chess
// (a FEN with card zones), half the time its cards instead: the pile hidden or emptied onto
// the discard piles (a reshuffle, seeded or not), three alike in hand, the opponent's hand
// hidden, two pile cards swapped; with `targeted`, one
// time in four a targeted_position (below). `alphabet` gives
// the letters a piece may be added with (empty: those of the text). nullopt when the
// text's format is unknown, nothing could be changed, or (ChessMe) the parser refuses the result. `what`,
// when given, receives a short description ("move b1c3", "add q@d4", ...).
std::optional<std::string> mutate_position(const std::string& text, const std::string& alphabet,
                                           const Choose& choose, std::string* what = nullptr,
                                           bool targeted = true);

// A mutation toward a situation the rules speak of and random games seldom reach. FEN: a
// bare-king ending with at most two more pieces (mostly minor pieces; reserves emptied or
// not), castling rights (with royals and rooks at home, or the field alone: in a variant
// without castling too), an en-passant field behind a pawn that just double-stepped, a
// pawn one step from promotion, the halfmove clock near the fifty-move limit. ChessMe: a
// full hand, an empty hand or pile, both piles empty, an ending (the royals and at most
// two more pieces), a pawn one rank short of the enemy royal's rank with a captured piece
// to exchange for. Pieces are recognised by the standard letters (K royal, P pawn, R rook,
// B N minor pieces). nullopt when nothing could be made.
std::optional<std::string> targeted_position(const std::string& text, const std::string& alphabet,
                                             const Choose& choose, std::string* what = nullptr);

// The simple move `e2e4` (two squares) reversed, `e4e2`; nullopt for anything else (a
// promotion, a placement, a ChessMe turn with a placement). The fuzzer plays moves back
// and forth with it to reach repeated positions.
std::optional<std::string> reversed_move(const std::string& action);

// The material of a position text when it is an ending: "bare kings" (royals only), "one
// minor" (a bishop or knight besides), "one piece", "two minors"; "" otherwise. Pieces in
// a reserve or hand count.
std::string material(const std::string& text);

// What a position text holds that the rules speak of, for the coverage report: its
// material class (above) as `material: ...`; FEN: `reserves: empty|not empty`, `field:
// castling rights`, `field: en passant`, `field: halfmove clock 90-99|100+`; ChessMe:
// `hand: full|empty`, `pile: empty`, `captured: not empty` (either side).
std::vector<std::string> position_features(const std::string& text);

// Smaller texts, for shrinking: each removes one board piece, one reserve, hand, pile or
// capture-pile tile, one FEN castling right, or resets a FEN move counter. Empty for an
// unknown format.
std::vector<std::string> removal_candidates(const std::string& text);

// ChessMe: the offset (dx, dy) that moves the pieces' bounding box to start at (0, 1);
// nullopt for other formats, no pieces, or when the box is already there.
std::optional<std::pair<int, int>> origin_offset(const std::string& text);
// ChessMe: every piece moved by (dx, dy). nullopt for other formats.
std::optional<std::string> translate_position(const std::string& text, int dx, int dy);
// Every square written in canonical action texts (`e2e4`, `P@(-1,3)`, ...) moved by (dx, dy).
std::string translate_actions(const std::string& actions, int dx, int dy);

}  // namespace arb::fuzz
