// The progress line of a long command (fuzz, mutate, validate, solve --epd, puzzles,
// synth, perft --suite, test, properties, diff): one line on standard error, rewritten in
// place, saying what is done, of how much, at what rate and how long the rest should take:
//
//   solve: 12/40 problems (30%), 3.1 problems/s, ETA 0m09s, 5 solved
//
// Shown only on a terminal (standard error a tty), never with --json and never when
// standard error is piped; ARBITER_PROGRESS=1 forces it on a pipe (the tests read the line
// that way) and ARBITER_PROGRESS=0 turns it off.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace arb {

// Whether a command shows its progress line (see above).
bool progress_wanted(bool json);

// The line's text. `total` 0: unknown (no percentage; the ETA from `share` when given).
// `share` in [0, 1] (negative: none): the part done by another measure than `done` (a
// record file's bytes, a time budget), for the percentage and the ETA.
std::string progress_text(const std::string& name, const std::string& unit, uint64_t done, uint64_t total,
                          double seconds, const std::string& extra = "", double share = -1);

// One command's line. Thread-safe; update() draws at most four times a second, the last
// update (done == total) and finish() always.
class ProgressLine {
 public:
  ProgressLine(std::string name, std::string unit, uint64_t total, bool on);
  ~ProgressLine() { finish(); }
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;
  bool on() const { return on_; }
  void set_total(uint64_t total);
  void update(uint64_t done, const std::string& extra = "", double share = -1, bool force = false);
  double seconds() const;
  // Draws the last state (when there was an update) and clears the line: the command's
  // report follows.
  void finish();

 private:
  std::string name_, unit_;
  uint64_t total_ = 0, done_ = 0;
  std::string extra_;
  double share_ = -1;
  bool on_ = false, updated_ = false, drawn_ = false, finished_ = false;
  std::chrono::steady_clock::time_point t0_, last_;
  mutable std::mutex mu_;
  void draw();
};

}  // namespace arb
