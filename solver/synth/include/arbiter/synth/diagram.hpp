// Board diagrams: an SVG written here (no external assets) from a position text, and an
// HTML page of a puzzle file. Pieces are letters on discs (white discs White, black discs
// Black), files and ranks are labelled, the side to move and every off-board part of the
// position (reserves, ChessMe hands, piles and capture piles, No Stress Chess cards, any
// `name:value` field) is written under the board. The unbounded grid is drawn as the
// squares around its pieces (one each side), labelled with its coordinates: a run of more
// than kMaxEmptyRun empty files (ranks) between two pieces is elided into one narrow band
// marked with an ellipsis, so the drawing grows with the pieces, never with the distances
// between them (pieces a billion squares apart draw as a few squares and a band).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "arbiter/engine.hpp"

namespace arb::synth {

constexpr int kMaxEmptyRun = 3;

struct Diagram {
  bool grid = false;
  // The squares drawn: files x0.., ranks y0.. (w files, h ranks) unless `files`/`ranks`
  // list them (the grid): then x0/y0 are the first and w/h the counts.
  int x0 = 0, y0 = 1, w = 8, h = 8;
  // The grid's files (ranks) drawn, in increasing order; `file_gap[i]` (`rank_gap[i]`): an
  // elided run of empty ones stands before the i-th.
  std::vector<int> files, ranks;
  std::vector<bool> file_gap, rank_gap;
  std::vector<std::pair<Coord, char>> pieces;
  Color side = Color::White;
  std::vector<std::pair<std::string, std::string>> notes;  // label, value
};

// Reads a position text: FEN (any board size, reserves in brackets, extra `name:value`
// fields such as No Stress Chess's cards) or ChessMe text. Throws PositionError.
Diagram parse_diagram(const std::string& position);

// Square (x, y) is dark when x + y is odd (a1 dark). Colours of the squares.
constexpr const char* kLightSquare = "#eeeed2";
constexpr const char* kDarkSquare = "#769656";
constexpr int kSquarePx = 44, kMarginPx = 26, kCaptionPx = 30;

// The SVG; `caption` is written above the board (the side to move is always written).
std::string diagram_svg(const Diagram& d, const std::string& caption = "");
// The pixel centre of square (x, y) in the SVG's coordinates.
std::pair<int, int> square_centre(const Diagram& d, Coord c);

// A puzzle file (corpus/puzzles/*.csv): header `position,goal,depth,solution,variant,options`,
// RFC 4180 quoting. Throws std::invalid_argument naming the line.
struct PuzzleRow {
  std::string position, goal, depth, solution, variant, options;
  std::string tree;  // the optional seventh column `tree` (stipulation puzzles)
};
std::vector<PuzzleRow> read_puzzle_csv(const std::string& text);

// One HTML page (no external assets) with one section per row; rows whose position does
// not read show the error instead of a board.
std::string puzzle_page(const std::string& title, const std::vector<PuzzleRow>& rows);

std::string html_escape(const std::string& s);

// The RGB pixel at (x, y) of a PNG file (the diagram test reads browser screenshots back).
// False when the file does not read or libpng was not found at build time.
bool png_pixel(const std::string& path, int x, int y, uint8_t rgb[3], int* width = nullptr,
               int* height = nullptr);

}  // namespace arb::synth
