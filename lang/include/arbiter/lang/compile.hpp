// Stage 4: the compiler. A checked model becomes a Program: flat, per-square tables that
// the generator (generator.cpp) runs without looking at the rules text or the model again.
// A construct the generator cannot execute yet is a compile error naming the file, line
// and feature.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "arbiter/engine.hpp"
#include "arbiter/lang/diagnostics.hpp"
#include "arbiter/lang/model.hpp"

namespace arb::lang {

using Bitboard = uint64_t;
constexpr int kMaxTypes = 16;

// The 8 unit directions, board view: N NE E SE S SW W NW. Ride masks use these bits.
constexpr int kDirDx[8] = {0, 1, 1, 1, 0, -1, -1, -1};
constexpr int kDirDy[8] = {1, 1, 0, -1, -1, -1, 0, 1};
// The index of unit direction (dx, dy), or -1.
constexpr int unit_dir(int dx, int dy) {
  for (int d = 0; d < 8; ++d)
    if (kDirDx[d] == dx && kDirDy[d] == dy) return d;
  return -1;
}

// One piece type, compiled: what it may reach from every square, for each colour.
struct PieceProgram {
  char letter = 0;
  bool royal = false;
  bool minor_bishop = false;                            // moves exactly as a bishop (insufficient material)
  bool minor_knight = false;                            // moves exactly as a knight
  std::array<std::array<Bitboard, 64>, 2> leap_move{};  // non-capturing leaps
  std::array<std::array<Bitboard, 64>, 2> leap_capture{};       // capturing leaps
  std::array<std::array<Bitboard, 64>, 2> leap_capture_from{};  // reverse of leap_capture
  std::array<std::array<Bitboard, 64>, 2> ep_capture{};         // leaps that may capture en passant
  // Lame initial leaps (the pawn's double step): target and the squares passed over.
  struct Lame {
    int to;
    Bitboard path;
  };
  std::array<std::array<std::vector<Lame>, 64>, 2> initial_lame{};
  // Unlimited riders along the 8 unit directions (bit d of the mask, board view).
  std::array<uint8_t, 2> ride_move{};
  std::array<uint8_t, 2> ride_capture{};
  Bitboard promote_zone[2] = {0, 0};
  Bitboard forbidden_zone[2] = {0, 0};  // where a position may not hold it
  std::string promote_to;               // type indices, as chars 0..15
  bool must_promote = true;
  bool resets_clock = false;  // its moves reset the fifty-move counter (the pawn)
};

// The unbounded grid (ChessMe): pieces as move vectors instead of per-square tables.
struct GridMove {
  int dx = 0, dy = 0;  // board view for the colour it belongs to
  bool rider = false;  // unit direction, unlimited
  bool can_move = true, can_capture = true;
};
struct GridPiece {
  char letter = 0;
  bool royal = false;
  bool is_pawn = false;  // the piece placements are measured from (`own-pawn`)
  bool promote_exchange = false;
  std::array<std::vector<GridMove>, 2> moves;
  // Attack detection: capturing leaps within 3 squares, and capturing ride directions.
  std::array<std::array<std::array<bool, 7>, 7>, 2> leap_capture{};  // [c][dx+3][dy+3]
  std::array<uint8_t, 2> ride_capture{};  // bit d: direction (kDx[d], kDy[d]) of the board
};
struct GridProgram {
  std::vector<GridPiece> types;
  int royal_type = -1;
  int pawn_type = -1;
  bool adjacency_rule = true;
  int hand_size = 3, hand_draw = 3;
  std::string pile;  // each side's pile before shuffling (upper case)
  bool pile_shuffled = true;
  uint64_t seed = 1;
  std::string setup_pieces;  // the pieces field of the start
  bool place = false;        // an optional placement phase follows the move
  bool place_pawn_beside = false, place_other_behind = false;
  bool draw_after_place = false;
  std::string no_move_reason = "no-legal-move";  // status reason when not in check and no move
};

struct Program {
  std::string variant;
  // Every option's value as compiled (defaults and --set), sorted by name: the engine's config().
  std::vector<std::pair<std::string, std::string>> options;
  std::string title;
  std::string source;  // path of the ruleset file
  int width = 8, height = 8;
  int squares = 64;
  int ntypes = 0;
  std::vector<PieceProgram> types;
  int royal_type = -1;
  std::string letters;  // letter of each type

  // Rays: ray[d][sq] = squares from sq (exclusive) in unit direction d to the edge.
  std::array<std::array<Bitboard, 64>, 8> ray{};
  std::array<int, 8> dir_step{};
  std::array<std::array<Bitboard, 64>, 64> between{};  // strictly between two squares on a line
  std::array<std::array<Bitboard, 64>, 64> line{};     // the full line through two squares
  std::array<Bitboard, 64> adjacent{};                 // the 8 neighbours of each square
  Bitboard board_mask = 0;
  Bitboard rank_mask[2][16] = {};  // relative rank r (1-based) of each colour

  bool castling = false;
  int castling_rook = -1;
  int ks_king_to = 6, ks_rook_to = 5, qs_king_to = 2, qs_rook_to = 3;

  bool has_reserve = false;
  std::string start_text;  // the start position text
  bool action_move = true;
  bool action_place = false;
  Bitboard place_zone[2] = {0, 0};
  bool place_first_royal = false;
  bool royal_safe = true;
  bool royals_apart = false;

  Result on_checkmate = Result::Ongoing;  // relative: WhiteWins means "the mover wins"
  bool checkmate_loses = true;
  bool stalemate_draw = true;
  bool insufficient_draw = false;
  bool insufficient_needs_empty_reserves = false;
  int claim_repetition = 0;
  int claim_fifty = 0;

  // Generic lines (pins) are valid only for unit-direction riders; set when every rider is.
  bool lines_are_rays = true;

  std::vector<Expectation> expects;

  // Set for unbounded boards; the bounded tables above are then unused.
  std::shared_ptr<const GridProgram> grid;
};

// Compiles a checked model. Returns nullptr and reports at the construct's location when
// the model uses a feature the generator cannot execute yet.
std::shared_ptr<const Program> compile(const Model& m, Diagnostics& diags);

// The compiled generator: an Engine running a Program.
std::unique_ptr<Engine> make_compiled_engine(std::shared_ptr<const Program> program);

// Loads, checks and compiles a ruleset file in one call (diagnostics in `diags`).
struct Compiled {
  std::vector<std::unique_ptr<Source>> sources;
  std::unique_ptr<Model> model;
  std::shared_ptr<const Program> program;
};
Compiled compile_file(const std::string& path, const std::map<std::string, std::string>& overrides,
                      Diagnostics& diags);

}  // namespace arb::lang
