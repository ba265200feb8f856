// libFuzzer target: action notation (engine/src/notation.cpp) read by arb::parse_action on
// fixed positions of every bundled engine, squares (arb::parse_square) and the range-checked
// numbers every reader uses (arbiter/numbers.hpp, compared with std::from_chars). The
// first byte picks the position; the rest is the text.
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "arbiter/notation.hpp"
#include "arbiter/numbers.hpp"
#include "fuzz_common.hpp"

namespace {

using namespace arb;

struct Fixed {
  std::unique_ptr<Engine> engine;
  std::string position;
};
std::vector<Fixed>* fixed = nullptr;

void check_numbers(std::string_view s) {
  int64_t want = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), want);
  bool ok = ec == std::errc() && ptr == s.data() + s.size() && !s.empty();
  auto got = parse_integer(s, INT64_MIN, INT64_MAX);
  // from_chars takes no '+': compare only what both accept.
  if (!s.empty() && s[0] != '+' && ok != got.has_value())
    fuzz_targets::finding("parse_integer disagrees with from_chars on `" + std::string(s) + "`");
  if (ok && got && *got != want) fuzz_targets::finding("parse_integer misreads `" + std::string(s) + "`");
  auto small = parse_integer(s, -5, 5);
  if (small && (*small < -5 || *small > 5)) fuzz_targets::finding("parse_integer ignores its range");
  auto u = parse_unsigned(s, 0, UINT64_MAX);
  uint64_t uw = 0;
  auto [up, uec] = std::from_chars(s.data(), s.data() + s.size(), uw);
  bool uok = uec == std::errc() && up == s.data() + s.size() && !s.empty();
  if (uok != u.has_value() || (u && *u != uw))
    fuzz_targets::finding("parse_unsigned disagrees with from_chars on `" + std::string(s) + "`");
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fixed = new std::vector<Fixed>();
  auto add = [](std::unique_ptr<Engine> e, const std::string& pos) {
    if (!pos.empty()) e->set_position(pos);
    fixed->push_back({std::move(e), pos});
  };
  using fuzz_targets::bundled_engine;
  const auto kRef = registry::EngineKind::Reference;
  add(bundled_engine(registry::kStandard), "");
  add(bundled_engine(registry::kStandard),
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  add(bundled_engine(registry::kStandard), "4k3/1P6/8/8/8/8/8/4K2R w K - 0 1");
  add(bundled_engine(registry::kStandard, kRef),
      "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
  add(bundled_engine(registry::kReserve), "");
  add(bundled_engine(registry::kReserve), "8/4k3/8/8/8/8/4R3/4K3[QRBBNNPPPPPPPPqrrbbnnpppppppp] b - - 1 2");
  add(bundled_engine(registry::kGrid), "");
  add(bundled_engine(registry::kGrid),
      "k(-999,1006),p(-1000,1004),P(-1000,1001),K(-998,1000) w Q/n -/- -/- 5");
  add(bundled_engine(registry::kGrid, kRef), "start:2");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0 || size > 512) return 0;
  Fixed& f = (*fixed)[data[0] % fixed->size()];
  std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::string before = f.engine->position();
  if (auto a = parse_action(*f.engine, text)) {
    // The action found must be legal here and print as a text that finds it again.
    std::string canonical = uci(f.engine->describe(*a), f.engine->chess960());
    auto again = parse_action(*f.engine, canonical);
    if (!again) fuzz_targets::finding("parse_action refuses its own canonical text `" + canonical + "`");
    f.engine->apply(*a);
    f.engine->undo();
  }
  if (f.engine->position() != before) fuzz_targets::finding("parse_action changed the position");
  size_t pos = 0;
  if (auto sq = parse_square(text, pos)) {
    std::string name = square_name(*sq);
    size_t p2 = 0;
    auto back = parse_square(name, p2);
    if (!back || !(*back == *sq) || p2 != name.size())
      fuzz_targets::finding("square_name(" + name + ") does not read back");
  }
  check_numbers(text);
  return 0;
}
