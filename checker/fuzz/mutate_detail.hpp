// The position mutations of the fuzzer (mutate.hpp), by text format: FEN-like texts
// (mutate_fen.cpp), the unbounded grid's text (mutate_grid.cpp) and the card zones
// (mutate.cpp, with the public entry points). Internal to checker/fuzz.
#pragma once

#include <cctype>
#include <optional>
#include <string>
#include <vector>

#include "arbiter/chessme_text.hpp"
#include "arbiter/nostress_text.hpp"
#include "fuzz/mutate.hpp"

namespace arb::fuzz::detail {

inline char upper(char c) {
  return static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
}
inline char lower(char c) {
  return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}
inline bool is_upper(char c) {
  return std::isupper(static_cast<unsigned char>(c)) != 0;
}

// ---- FEN ------------------------------------------------------------------------------

// A FEN-like text split into a grid of cells ('.' empty), the bracketed reserve and the
// remaining fields, as written.
struct Fen {
  std::vector<std::string> ranks;  // top rank first
  bool has_reserve = false;
  std::string reserve;              // letters only
  std::vector<std::string> fields;  // side, castling, en passant, halfmove, fullmove (as present)
};

struct Cell {
  size_t r, x;
};

// The standard letters the targeted mutations use (mutate_fen.cpp, "Situations"); a
// variant naming its pieces otherwise gets the generic mutations only.
constexpr char kRoyal = 'K', kPawn = 'P', kRook = 'R';
constexpr const char* kMinors = "BN";

std::optional<Fen> split_fen(const std::string& text);
std::vector<Cell> cells_where(const Fen& f, bool occupied);
std::string join_fen(const Fen& f);
std::optional<std::string> mutate_fen(Fen f, const std::string& alphabet, const Choose& choose,
                                      std::string* what);
std::optional<std::string> targeted_fen(Fen f, const std::string& alphabet, const Choose& choose,
                                        std::string* what);

std::optional<NoStressPosition> parse_ns(const std::string& text);
std::optional<std::string> mutate_cards(NoStressPosition p, const Choose& choose, std::string* what);

std::optional<ChessMePosition> parse_me(const std::string& text);
// The pieces' bounding box on the grid.
struct Box {
  int x0 = 0, y0 = 1, x1 = 0, y1 = 1;
};
Box box_of(const ChessMePosition& p);
// A full hand for the coverage features (ChessMe's three tiles).
constexpr size_t kHandSize = 3;
std::optional<std::string> targeted_chessme(ChessMePosition p, const std::string& alphabet,
                                            const Choose& choose, std::string* what);
std::optional<std::string> mutate_chessme(ChessMePosition p, const std::string& alphabet,
                                          const Choose& choose, std::string* what);

}  // namespace arb::fuzz::detail
