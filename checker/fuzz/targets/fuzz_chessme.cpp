// libFuzzer target: the ChessMe position text (engine/src/chessme_text.cpp) and the two
// ChessMe engines. parse_chessme must accept or throw PositionError; an accepted text must
// format canonically and parse back; both engines must read back every text they print,
// also after each of the first legal turns (extreme coordinates included).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "arbiter/chessme_text.hpp"
#include "fuzz_common.hpp"

namespace {

using namespace arb;

std::unique_ptr<Engine> compiled, compiled_probe, reference, reference_probe;

void play_and_read_back(Engine& e, Engine& probe, const std::string& text) {
  if (!fuzz_targets::load_and_read_back(e, probe, text)) return;
  std::vector<Action> acts;
  e.legal_actions(acts);
  // A few turns: each position reached must read back too.
  for (size_t i = 0; i < acts.size() && i < 4; ++i) {
    e.apply(acts[i]);
    std::string after = e.position();
    try {
      probe.set_position(after);
    } catch (const PositionError& err) {
      fuzz_targets::finding(e.name() + " refuses the text it printed after a turn: `" + after + "` (" +
                            err.what() + "), from `" + text + "`");
    }
    e.undo();
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  using fuzz_targets::bundled_engine;
  compiled = bundled_engine(registry::kGrid);
  compiled_probe = bundled_engine(registry::kGrid);
  reference = bundled_engine(registry::kGrid, registry::EngineKind::Reference);
  reference_probe = bundled_engine(registry::kGrid, registry::EngineKind::Reference);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;
  std::string text(reinterpret_cast<const char*>(data), size);
  try {
    ChessMePosition p = parse_chessme(text);
    std::string out = format_chessme(p);
    ChessMePosition q;
    try {
      q = parse_chessme(out);
    } catch (const PositionError& e) {
      fuzz_targets::finding("parse_chessme refuses format_chessme's `" + out + "`: " + e.what());
    }
    if (format_chessme(q) != out) fuzz_targets::finding("format_chessme is not stable on `" + out + "`");
  } catch (const PositionError& e) {
    if (e.column > text.size()) fuzz_targets::finding("PositionError column past the text");
  }
  play_and_read_back(*compiled, *compiled_probe, text);
  play_and_read_back(*reference, *reference_probe, text);
  return 0;
}
