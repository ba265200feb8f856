// Counts in user-facing messages: "1 move", "2 moves", "0 moves", never "1 moves". Every
// message that prints a count with its noun goes through plural().
#pragma once

#include <string>
#include <string_view>
#include <type_traits>

namespace arb {

// `n` and the noun: `one` when n is 1 (or -1), else `many` (default: `one` + "s").
template <class Int>
std::string plural(Int n, std::string_view one, std::string_view many = {}) {
  static_assert(std::is_integral_v<Int>, "plural() counts whole things");
  bool single = n == 1;
  if constexpr (std::is_signed_v<Int>) single = single || n == -1;
  std::string out = std::to_string(n) + " ";
  if (single) return out.append(one);
  if (many.empty()) return out.append(one).append("s");
  return out.append(many);
}

}  // namespace arb
