// libFuzzer target: the `.perft` suite reader (engine/src/perft_suite.cpp). It must return
// cases or throw std::runtime_error naming file:line; every case it returns has a depth in
// 0..kMaxSuiteDepth and a position.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>

#include "arbiter/perft_suite.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    for (const auto& c : arb::parse_perft_suite(in, "fuzz.perft")) {
      if (c.position.empty()) arb::fuzz_targets::finding("a case without a position");
      for (const auto& [depth, nodes] : c.expected)
        if (depth < 0 || depth > arb::kMaxSuiteDepth) arb::fuzz_targets::finding("depth out of range");
    }
  } catch (const std::runtime_error& e) {
    if (std::string(e.what()).rfind("fuzz.perft:", 0) != 0)
      arb::fuzz_targets::finding(std::string("error without file:line: ") + e.what());
  }
  return 0;
}
