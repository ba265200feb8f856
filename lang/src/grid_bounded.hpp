// The bounded grid program (issue 26): what grid_bounded_compile.cpp builds from a model and
// grid_bounded.cpp runs. Private to those two files.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "arbiter/lang/compile.hpp"

namespace arb::lang {

// One move vector of a piece, for one colour (Black's forward is -y).
struct BoundedMove {
  int dx = 0, dy = 0;
  int range = 1;  // 1 leaper, 0 unlimited rider, n at most n steps
  bool can_move = true, can_capture = true;
  bool initial = false;      // only from the piece's initial rows
  bool lame = false;         // a straight leap whose squares passed must be empty
  bool en_passant = false;   // may capture en passant
  bool double_step = false;  // initial + lame straight leap of 2: sets the en-passant square
};

struct BoundedPiece {
  char letter = 0;
  bool royal = false;
  bool resets_clock = false;
  bool bishop = false, knight = false;  // moves exactly as a chess bishop / knight
  std::array<std::vector<BoundedMove>, 2> moves;
  std::array<uint64_t, 2> initial_rows{}, promote_rows{}, forbidden_rows{};  // bit y-1
  std::string promote_to;                                                    // letters
};

struct BoundedGridProgram {
  std::shared_ptr<const Program> program;  // the bitboard compile: start, options, castling files
  int width = 8, height = 8;
  std::string letters;
  std::vector<BoundedPiece> types;
  int royal_type = -1;
  std::string checkmate_reason = "checkmate", stalemate_reason = "stalemate";
  bool insufficient_draw = false;
  int claim_repetition = 0, claim_fifty = 0;
};

}  // namespace arb::lang
