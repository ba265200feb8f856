// The validator's inner parts shared by its files (validate.cpp walks a game;
// diagnose.cpp explains an action no legal action matches). Not an interface.
#pragma once

#include <cctype>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "arbiter/notation.hpp"
#include "validate.hpp"

namespace arb::records::detail {

inline std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
inline std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// ---------------------------------------------------------------------------------------
// Action text patterns: what a step written in SAN or the canonical form says.

// What an action's text says (arb::StepPattern, engine/notation.hpp).
using StepPat = StepPattern;

inline bool is_upper(char c) {
  return c >= 'A' && c <= 'Z';
}
inline bool is_lower(char c) {
  return c >= 'a' && c <= 'z';
}
inline bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

inline bool action_matches(const std::vector<StepPat>& pats, const ActionInfo& info, size_t steps,
                           bool ignore_card) {
  if (steps > info.steps.size()) return false;
  for (size_t i = 0; i < steps; ++i)
    if (!step_matches(pats[i], info.steps[i], ignore_card)) return false;
  return true;
}

// ---------------------------------------------------------------------------------------
// The board as the position text shows it, for diagnostics.

struct BoardView {
  std::map<Coord, char> sq;
  std::string reserve, castling, whand, bhand;
  std::optional<Coord> ep;
  bool ok = false;
  char at(Coord c) const {
    auto it = sq.find(c);
    return it == sq.end() ? 0 : it->second;
  }
};

// The board a position text shows (FEN and the variants' texts), for the explanations.
BoardView read_board(const std::string& pos);

inline bool owned_by(char piece, Color side) {
  return side == Color::White ? is_upper(piece) : is_lower(piece);
}
inline char upper(char c) {
  return static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
}

inline std::string side_name(Color c) {
  return c == Color::White ? "White" : "Black";
}

struct Ctx {
  Engine& e;
  const RecordEngine& proto;
  const std::vector<Action>& legal;
  const std::vector<ActionInfo>& infos;
};

// An action as SAN; the legal actions nearest to a pattern (at most five, as SAN).
std::string action_san(Ctx& c, size_t i);
std::vector<std::string> nearest(Ctx& c, const std::vector<StepPat>& pats, size_t first_bad,
                                 const std::vector<size_t>& candidates);
// Why no legal action matches: sets r.code, r.reason and r.alternatives.
void diagnose(Ctx& c, const std::vector<StepPat>& pats, Finding& r);

}  // namespace arb::records::detail
