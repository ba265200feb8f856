// `arbiter solve`'s answer to a composer's stipulation, as text for people or one JSON
// object. Help and series play's lines are printed as the solver proves them
// (arb::stip::Options::on_line), so that an h#4 with millions of lines needs no memory for
// them: the counts, the outcome and the proof of "none shorter" follow the lines.
#pragma once

#include <cstdint>
#include <string>

#include "arbiter/json.hpp"
#include "arbiter/stipulation.hpp"

namespace arb::cli {

// Seconds for machines, to the microsecond.
double micros(double seconds);
// solved, shorter (only shorter solutions), none or unknown.
const char* result_word(const arb::stip::Result& r);

class StipPrinter {
 public:
  // o: the problem's options (stipulation, tree, tries, count_only, max_lines); start: the
  // side that moves first; uci: moves in UCI, else SAN. json_head: fields put first in the
  // JSON object (solve --epd: the problem's line and position); text_head: a line printed
  // first in text (solve --epd: where the problem is). Nothing is printed before line() or
  // finish().
  StipPrinter(const arb::stip::Options& o, Color start, bool json, bool uci, const std::string& goal,
              Json json_head = Json::object(), std::string text_head = "");
  // Help and series play: one line as it is proved (shorter ones come first).
  void line(const arb::stip::Line& l, bool full);
  // The rest of the answer; for keyed play all of it, for help and series play the lines
  // r still holds (a solver run without on_line) and then the rest.
  void finish(const arb::stip::Result& r);

 private:
  std::string side_text() const;  // `h#4 (black starts)`
  void begin();
  void close_shorter();
  const arb::stip::Options& o_;
  Color start_;
  bool json_, uci_, keyed_;
  std::string goal_;
  Json json_head_;
  std::string text_head_;
  bool begun_ = false, in_shorter_ = true;
  uint64_t printed_in_array_ = 0;
};

}  // namespace arb::cli
