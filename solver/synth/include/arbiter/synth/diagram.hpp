// Board diagrams: an SVG written here (no external assets, no font needed for the pieces)
// from a position text, and an HTML page of a puzzle file. The orthodox pieces (a letter
// named king, queen, rook, bishop, knight or pawn) are vector figurines drawn from paths
// (figurines.cpp); every other piece is its letter on a disc (white discs White, black
// discs Black). Files and ranks are labelled, the side to move and every off-board part of
// the position (reserves, ChessMe hands, piles and capture piles, No Stress Chess cards,
// any `name:value` field) is written under the board, then a legend naming every letter
// the diagram uses (on the board or off it). Titles and notes are wrapped to the drawing's
// width (measured with a conservative per-character width), never clipped. The unbounded grid is drawn as the
// squares around its pieces (one each side), labelled with its coordinates: a run of more
// than kMaxEmptyRun empty files (ranks) between two pieces is elided into one narrow band
// marked with an ellipsis, so the drawing grows with the pieces, never with the distances
// between them (pieces a billion squares apart draw as a few squares and a band).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "arbiter/engine.hpp"

namespace arb::lang {
struct Model;  // arbiter/lang/model.hpp
}  // namespace arb::lang

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
  // The squares whose piece is written `+X` (a promoted X, shogi's FEN): drawn as X with a
  // `+` mark, named `+X promoted NAME` in the legend.
  std::vector<Coord> promoted;
  // The squares whose piece is written `X~` (crazyhouse's FEN: an X promoted from a pawn,
  // a pawn again when captured): drawn as X with a `~` mark.
  std::vector<Coord> demotable;
  Color side = Color::White;
  std::vector<std::pair<std::string, std::string>> notes;  // label, value
  // The letters written off the board (reserves, hands, piles, cards), for the legend.
  std::string held;
  // Each piece letter's name (upper case letter -> `nemesis-pawn`); empty: the letters
  // K Q R B N P name the orthodox pieces and any other letter is unnamed.
  std::map<char, std::string> names;
};

// The names of a compiled ruleset's pieces and (for letters no piece uses) deck cards.
// It reads the model: defined in arbiter_synth (diagram_names.cpp), not arbiter_diagram.
std::map<char, std::string> piece_names(const lang::Model& m);
// The orthodox names of K Q R B N P (a diagram of a position no ruleset read).
std::map<char, std::string> orthodox_names();
// The legend's entries `L nemesis-pawn`, one per letter on the board or held, in
// alphabetical order (then `+X promoted NAME` for promoted pieces, `X~ NAME promoted from
// a pawn`); a letter without a name is `X (unnamed)`.
std::vector<std::string> legend(const Diagram& d);

// Whether a piece named `name` is drawn as a figurine, and the figurine (an SVG <g>)
// centred on (cx, cy) in a square of `size` pixels.
bool has_figurine(const std::string& name);
std::string figurine_svg(const std::string& name, bool white, int cx, int cy, int size);

// The lines `text` is wrapped into to fit `width` pixels at `font_px` (at spaces, or
// within a word longer than a line), measured with a per-character width no narrower than
// the sans-serif fonts' (DejaVu Sans, Liberation Sans).
std::vector<std::string> wrap_text(const std::string& text, int font_px, int width);
// That conservative width of `text` in pixels.
int text_width(const std::string& text, int font_px);

// Reads a position text: FEN (any board size, reserves in brackets, extra `name:value`
// fields such as No Stress Chess's cards) or ChessMe text. Throws PositionError.
Diagram parse_diagram(const std::string& position);

// Square (x, y) is dark when x + y is odd (a1 dark). Colours of the squares.
constexpr const char* kLightSquare = "#eeeed2";
constexpr const char* kDarkSquare = "#769656";
constexpr int kSquarePx = 44, kMarginPx = 26, kCaptionPx = 30;
// The drawing's width bounds, and the text sizes (a caption wider than kMaxWidthPx wraps).
constexpr int kMinWidthPx = 300, kMaxWidthPx = 640;
constexpr int kCaptionFontPx = 15, kCaptionLinePx = 19, kNoteFontPx = 13, kNoteLinePx = 20;

// The SVG; `caption` is written above the board (the side to move is always written),
// wrapped when longer than the drawing is wide.
std::string diagram_svg(const Diagram& d, const std::string& caption = "");
// The pixel centre of square (x, y) in the SVG's coordinates (the same caption: a
// wrapped caption moves the board down).
std::pair<int, int> square_centre(const Diagram& d, Coord c, const std::string& caption = "");

// A puzzle file (corpus/puzzles/*.csv): header `position,goal,depth,solution,variant,options`,
// RFC 4180 quoting. Throws std::invalid_argument naming the line.
struct PuzzleRow {
  std::string position, goal, depth, solution, variant, options;
  std::string tree;  // the optional seventh column `tree` (stipulation puzzles)
};
std::vector<PuzzleRow> read_puzzle_csv(const std::string& text);

// One HTML page (no external assets) with one section per row; rows whose position does
// not read show the error instead of a board. `names(variant)` gives each row's piece
// names for its legend and `solution(row)` the solution as a person reads it (SAN); when
// absent, the orthodox names and the solution column as written.
struct PageHooks {
  std::function<std::map<char, std::string>(const std::string& variant)> names;
  std::function<std::string(const PuzzleRow& row)> solution;
};
std::string puzzle_page(const std::string& title, const std::vector<PuzzleRow>& rows,
                        const PageHooks& hooks = {});

std::string html_escape(const std::string& s);

// The RGB pixel at (x, y) of a PNG file (the diagram test reads browser screenshots back).
// False when the file does not read or libpng was not found at build time.
bool png_pixel(const std::string& path, int x, int y, uint8_t rgb[3], int* width = nullptr,
               int* height = nullptr);

// A decoded RGB picture (row-major, 3 bytes a pixel), for the render test's comparisons.
struct Image {
  int width = 0, height = 0;
  std::vector<uint8_t> rgb;
};
// False when the file does not read (or libpng was not found at build time).
bool read_png(const std::string& path, Image& out);
// Written through a temporary file renamed into place. False on failure.
bool write_png(const std::string& path, const Image& img);

}  // namespace arb::synth
