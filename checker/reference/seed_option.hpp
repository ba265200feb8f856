// The `seed` option of the reference engines that deal from a seeded shuffle (ChessMe, No
// Stress Chess): a decimal 64-bit number. Option reading only; no game logic.
#pragma once

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace arb::ref {

inline uint64_t seed_option(const std::string& variant, const std::string& value) {
  bool ok = !value.empty() && value.size() <= 20 && std::all_of(value.begin(), value.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
  uint64_t seed = 0;
  if (ok) {
    try {
      seed = std::stoull(value);
    } catch (const std::exception&) {
      ok = false;
    }
  }
  if (!ok)
    throw std::invalid_argument(variant + ": option seed must be a decimal 64-bit number, not '" + value +
                                "'");
  return seed;
}

}  // namespace arb::ref
