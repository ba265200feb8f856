// libFuzzer target: the puzzle file (corpus/puzzles/*.csv, `arbiter puzzles` output), read
// by `diagram --puzzles` (synth::read_puzzle_csv, then one diagram per row) and by
// `puzzles --append` (puzzles::from_csv). Each reader must accept or throw
// std::invalid_argument (the file's fault, named); every row read must draw or show its
// error (puzzle_page never throws); a file from_csv accepts must write back (to_csv) to a
// file it reads as the same puzzles.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "arbiter/puzzles.hpp"
#include "arbiter/synth/diagram.hpp"
#include "fuzz_common.hpp"

namespace {

using namespace arb;

bool same(const puzzles::Puzzle& a, const puzzles::Puzzle& b) {
  return a.position == b.position && a.goal == b.goal && a.depth == b.depth && a.solution == b.solution &&
         a.variant == b.variant && a.options == b.options;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    std::vector<synth::PuzzleRow> rows = synth::read_puzzle_csv(text);
    if (rows.size() <= 16) (void)synth::puzzle_page("fuzz", rows);  // a diagram per row
  } catch (const std::invalid_argument&) {
  }
  std::vector<puzzles::Puzzle> read;
  try {
    read = puzzles::from_csv(text);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  const std::string written = puzzles::to_csv(read);
  std::vector<puzzles::Puzzle> again;
  try {
    again = puzzles::from_csv(written);
  } catch (const std::invalid_argument& e) {
    fuzz_targets::finding(std::string("from_csv refuses to_csv's file: ") + e.what() + "\n" + written);
  }
  if (again.size() != read.size()) fuzz_targets::finding("to_csv/from_csv changes the number of puzzles");
  for (size_t i = 0; i < read.size(); ++i)
    if (!same(read[i], again[i]))
      fuzz_targets::finding("to_csv/from_csv changes puzzle " + std::to_string(i));
  if (puzzles::to_csv(again) != written) fuzz_targets::finding("to_csv is not stable");
  return 0;
}
