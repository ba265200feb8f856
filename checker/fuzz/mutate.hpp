// Position-text mutations for the differential checker, and the smaller texts its shrinker
// tries. Nothing here knows a variant: the code dispatches on the text format alone
// (FEN with optional bracketed reserves, or the ChessMe text of arbiter/chessme_text.hpp)
// and leaves validation to the engines, which accept or reject what it makes.
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
// removed; for ChessMe a hand tile, a pile or a capture pile changed. `alphabet` gives
// the letters a piece may be added with (empty: those of the text). nullopt when the
// text's format is unknown or nothing could be changed. `what`, when given, receives a
// short description ("move b1c3", "add q@d4", ...).
std::optional<std::string> mutate_position(const std::string& text, const std::string& alphabet,
                                           const Choose& choose, std::string* what = nullptr);

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
