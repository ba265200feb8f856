// libFuzzer target: FEN with reserves (engine/src/fen.cpp) and every engine that reads it.
// The input is a position text. parse_fen must accept or throw PositionError (column
// inside the text) on boards of several sizes; an accepted text must format and parse back
// to the same fields; the chess and Chessembly engines (compiled and reference) must read
// back every text they print.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "arbiter/fen.hpp"
#include "fuzz_common.hpp"

namespace {

using namespace arb;

struct Engines {
  std::unique_ptr<Engine> chess, chess_probe, ref_chess, ref_chess_probe;
  std::unique_ptr<Engine> embly, embly_probe, ref_embly, ref_embly_probe;
};
Engines* engines = nullptr;

void fen_round_trip(std::string_view text, int w, int h) {
  FenFields f;
  try {
    f = parse_fen(text, w, h, "KQRBNPkqrbnp");
  } catch (const PositionError& e) {
    if (e.column > text.size()) fuzz_targets::finding("PositionError column past the text");
    return;
  }
  std::string out = format_fen(f);
  FenFields g;
  try {
    g = parse_fen(out, w, h, "KQRBNPkqrbnp");
  } catch (const PositionError& e) {
    fuzz_targets::finding("parse_fen refuses format_fen's `" + out + "`: " + e.what());
  }
  if (format_fen(g) != out) fuzz_targets::finding("format_fen is not stable on `" + out + "`");
  try {
    auto rights = resolve_castling(f);
    (void)format_castling(f, rights);
  } catch (const PositionError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  using fuzz_targets::bundled_engine;
  const auto kRef = registry::EngineKind::Reference;
  engines = new Engines{bundled_engine(registry::kStandard),       bundled_engine(registry::kStandard),
                        bundled_engine(registry::kStandard, kRef), bundled_engine(registry::kStandard, kRef),
                        bundled_engine(registry::kReserve),        bundled_engine(registry::kReserve),
                        bundled_engine(registry::kReserve, kRef),  bundled_engine(registry::kReserve, kRef)};
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;
  std::string text(reinterpret_cast<const char*>(data), size);
  fen_round_trip(text, 8, 8);
  fen_round_trip(text, 10, 8);
  fen_round_trip(text, 1, 1);
  fen_round_trip(text, 26, 99);
  Engines& e = *engines;
  fuzz_targets::load_and_read_back(*e.chess, *e.chess_probe, text);
  fuzz_targets::load_and_read_back(*e.ref_chess, *e.ref_chess_probe, text);
  fuzz_targets::load_and_read_back(*e.embly, *e.embly_probe, text);
  fuzz_targets::load_and_read_back(*e.ref_embly, *e.ref_embly_probe, text);
  return 0;
}
