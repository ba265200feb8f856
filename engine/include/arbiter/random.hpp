// The product code's one seeded random source: splitmix64 (Steele, Lea and Flood, "Fast
// splittable pseudorandom number generators", 2014). Every seeded stream the project records
// (ChessMe and No Stress Chess `start:SEED` deals, Chess 2's dice) and the hash keys derived
// from it use these two functions, so a recorded seed reproduces the same stream everywhere.
// The reference engines (checker/reference/) keep their own copies on purpose: they share
// only the interface and the text formats with the product, never its logic.
#pragma once

#include <cstdint>

namespace arb {

// The golden-ratio increment splitmix64 adds to its state before every output.
inline constexpr uint64_t kSplitMixGamma = 0x9E3779B97F4A7C15ull;

// splitmix64's output function: a bijective mix of the 64 bits of `z`.
constexpr uint64_t splitmix64_mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// The next output of the stream whose state is `state` (advanced first by the gamma).
constexpr uint64_t splitmix64_next(uint64_t& state) {
  state += kSplitMixGamma;
  return splitmix64_mix(state);
}

}  // namespace arb
