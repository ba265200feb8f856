// Betza / XBetza piece notation: atoms W F D N A H C Z G (K Q R B as compounds), a doubled
// atom or a count for riders (WW, W0, W3), directions f b l r v s (and pairs fl, ff, fs...),
// modalities m (move only), c (capture only), e (en-passant capture), i (initial: only from
// the piece's `initial` ranks), n (lame: the square passed over must be empty), and d
// (capture own), p (a hopper over one screen, the cannon), g (a hopper landing just beyond
// the first piece, the grasshopper); a (another leg) and others parse but are not
// executable yet.
#pragma once

#include <string>
#include <vector>

namespace arb::lang {

// The longest limited rider (`W99`); a longer count is an error, never a wrap-around.
constexpr int kMaxBetzaRange = 99;

struct BetzaMove {
  int dx = 0, dy = 0;  // one direction, White's view (+y forward)
  int range = 1;       // 1 leaper, 0 unlimited rider, n: rider of at most n steps
  bool can_move = true;
  bool can_capture = true;
  bool en_passant = false;  // e: may capture en passant
  bool initial = false;     // i
  bool lame = false;        // n
  // p: a hopper that jumps exactly one piece (the screen) and then moves as the rider (the
  // cannon); g: one that lands on the square just beyond the first piece (the grasshopper).
  char hop = 0;
  std::string unsupported;  // modifiers the generator cannot run yet (d, a, ...)
};

struct BetzaError {
  std::string message;
  size_t offset = 0;  // in the Betza text
};

// Parses `text`; on failure returns false and fills `err`.
bool parse_betza(const std::string& text, std::vector<BetzaMove>& out, BetzaError& err);

}  // namespace arb::lang
