// Popeye's input language, the orthodox subset (`arbiter solve --popeye FILE`):
//
//   BeginProblem
//   Pieces White Kg1 Rd1 Pf2g2h2  Black Kg8 Pf7g7h7
//   Stipulation #2
//   Option NoBoard Try
//   NextProblem
//   ...
//   EndProblem
//
// Read: BeginProblem, NextProblem, EndProblem; Pieces (White / Black, then K Q R B S P
// with one or more squares each, `Pf2g2h2`); Stipulation (arb::stip::parse_stipulation's
// forms); Option NoCastling SQUARES, EnPassant FROM PASSED TO (the double step just
// played), HalfDuplex, WhiteToPlay, and the
// options that change no answer (NoBoard, NoThreat, NoShortVariations) and Try (tries
// refuted once); Remark / Title / Author / Origin / Award (the rest of the line); Condition
// only as `Condition` with nothing after it. Keywords are case-insensitive and may be
// abbreviated as Popeye allows (a unique prefix of three letters or more). Anything else is
// refused by name with its line and column.
//
// Castling: Popeye's convention, every king and rook on its starting square may castle
// unless NoCastling names one of their squares.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "arbiter/engine.hpp"
#include "arbiter/stipulation.hpp"

namespace arb::stip {

struct PopeyeProblem {
  int line = 0;          // the line of its first keyword
  std::string position;  // FEN, the side to move the one that starts
  Stipulation stip;
  std::optional<Color> start;  // help play: who starts (Popeye's default, or as the options say)
  bool tries = false;          // Option Try
};

// A located refusal: "line L, column C: ...".
struct PopeyeError : std::runtime_error {
  int line, column;
  PopeyeError(const std::string& what, int l, int c) : std::runtime_error(what), line(l), column(c) {}
};

std::vector<PopeyeProblem> read_popeye(const std::string& text);

}  // namespace arb::stip
