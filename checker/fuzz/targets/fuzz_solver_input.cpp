// libFuzzer target: the solver's input texts. The whole input as (1) a stipulation
// (`solve --stipulation`, parse_stipulation: what it accepts writes back, text(), to a
// text it reads as the same), (2) a batch file (`solve --epd`, parse_batch_line per line:
// accepts, skips or throws std::invalid_argument; a line read gives a stipulation that
// writes back and a position the chess engine takes or refuses with PositionError), and
// (3) Popeye input (`solve --popeye`, read_popeye: problems or a PopeyeError with a line
// and column inside the text; each problem's stipulation writes back, its position loads
// or is refused with PositionError).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "arbiter/popeye_input.hpp"
#include "arbiter/stipulation.hpp"
#include "fuzz_common.hpp"

namespace {

using namespace arb;

std::unique_ptr<Engine> chess, chess_probe;

void stip_round_trip(const stip::Stipulation& s) {
  const std::string t = s.text();
  auto again = stip::parse_stipulation(t);
  if (!again) fuzz_targets::finding("parse_stipulation refuses text()'s `" + t + "`");
  if (again->text() != t)
    fuzz_targets::finding("stipulation `" + t + "` reads back as `" + again->text() + "`");
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  chess = fuzz_targets::bundled_engine(registry::kStandard);
  chess_probe = fuzz_targets::bundled_engine(registry::kStandard);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  if (auto s = stip::parse_stipulation(text)) stip_round_trip(*s);

  std::istringstream lines(text);
  int count = 0;
  for (std::string line; std::getline(lines, line) && count < 8;) {
    std::optional<stip::BatchLine> b;
    try {
      b = stip::parse_batch_line(line);
    } catch (const std::invalid_argument&) {
      continue;
    }
    if (!b) continue;
    ++count;
    stip_round_trip(b->stip);
    fuzz_targets::load_and_read_back(*chess, *chess_probe, b->position);
  }

  std::vector<stip::PopeyeProblem> problems;
  try {
    problems = stip::read_popeye(text);
  } catch (const stip::PopeyeError& e) {
    if (e.line < 1 || e.column < 1)
      fuzz_targets::finding(std::string("PopeyeError without a place: ") + e.what());
    return 0;
  }
  for (size_t i = 0; i < problems.size() && i < 8; ++i) {
    stip_round_trip(problems[i].stip);
    fuzz_targets::load_and_read_back(*chess, *chess_probe, problems[i].position);
  }
  return 0;
}
