// FEN and its relatives (X-FEN and Shredder-FEN castling fields, bracketed reserves as
// Fairy-Stockfish and lichess write crazyhouse pockets): the shared text format of
// bounded-board variants. Parsing and printing only; no move logic.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arbiter/engine.hpp"

namespace arb {

struct FenFields {
  int width = 8;
  int height = 8;
  std::vector<char> cells;  // (y-1)*width + x; 0 = empty square, else the piece letter
  // Fairy-Stockfish's promoted-piece mark: `Q~` is a queen that was a pawn (it returns to a
  // hand as one when captured). Same indexing as cells; empty when no square is marked.
  // Read only when `allowed` holds '~'; written after the piece's letter.
  std::vector<bool> promoted;
  // Shogi's form of a promoted piece: `+P`, the `+` before the letter of the piece it
  // promoted from. Read only when `allowed` holds '+'; same indexing as cells.
  std::vector<bool> plus;
  bool has_reserve = false;
  std::string reserve;  // the bracketed part, letters only (upper = White)
  Color side = Color::White;
  std::string castling = "-";
  std::optional<Coord> ep;
  // Fairy-Stockfish's list form of the en-passant field (`f3g4`: a custom pawn's double
  // step marks every square it passed and its arrival): the squares after the first, in
  // the order written. Empty for the one-square form. Written after `ep`, without spaces.
  std::vector<Coord> ep_more;
  // Fairy-Stockfish's check counter (n-check variants): the checks each side still has to
  // give, `W+B` between the en-passant field and the halfmove clock (`3+3` at the start of
  // 3check). Absent in other FENs.
  std::optional<std::array<int, 2>> checks_remaining;
  int halfmove = 0;
  int fullmove = 1;

  char at(Coord c) const { return cells[(c.y - 1) * width + c.x]; }
  char& at(Coord c) { return cells[(c.y - 1) * width + c.x]; }
};

// Parses `text` for a width x height board. Halfmove and fullmove fields may be missing
// (EPD); they default to 0 and 1. `allowed` lists the piece letters (both cases) that may
// appear. Throws PositionError with the column of the fault.
FenFields parse_fen(std::string_view text, int width, int height, std::string_view allowed);

std::string format_fen(const FenFields& f);

// A castling right: the colour and the file of the rook it castles with.
struct CastlingRight {
  Color color;
  int rook_file;
  friend bool operator==(const CastlingRight& a, const CastlingRight& b) {
    return a.color == b.color && a.rook_file == b.rook_file;
  }
};

// Resolves a castling field (KQkq, X-FEN, Shredder-FEN letters) against the board: `K`
// names the outermost rook on the king's h-side, `Q` the outermost on the a-side, a file
// letter names the rook on that file. `king` and `rook` are the letters of the royal and
// castling pieces (upper case). Throws PositionError (column relative to the field).
std::vector<CastlingRight> resolve_castling(const FenFields& f, char king = 'K', char rook = 'R');
// The same where castling happens on relative rank `rank` (1 = each side's back rank) and
// any piece of `rooks` (upper-case letters) castles with the king (`K`/`Q`: the outermost
// of them).
std::vector<CastlingRight> resolve_castling(const FenFields& f, char king, const std::string& rooks,
                                            int rank);

// Writes castling rights in X-FEN: K/Q where the rook is the outermost on its side, the
// file letter otherwise; "-" when there are none.
std::string format_castling(const FenFields& f, const std::vector<CastlingRight>& rights, char king = 'K',
                            char rook = 'R');
std::string format_castling(const FenFields& f, const std::vector<CastlingRight>& rights, char king,
                            const std::string& rooks, int rank);

}  // namespace arb
