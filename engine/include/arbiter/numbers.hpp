// Range-checked decimal integers for every text Arbiter reads (position texts, suites,
// ruleset numbers, command-line values): no wrap-around, no exceptions, no locale.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace arb {

// The decimal number `s` (an optional sign when `lo` < 0, then digits only) when it lies
// in [lo, hi]; nullopt for anything else, including values that overflow int64.
std::optional<int64_t> parse_integer(std::string_view s, int64_t lo, int64_t hi);

// The same for unsigned 64-bit values in [lo, hi] (no sign accepted).
std::optional<uint64_t> parse_unsigned(std::string_view s, uint64_t lo, uint64_t hi);

// Why `s` is not a number in [lo, hi], for messages: "expected a number" or "must be
// between LO and HI".
std::string integer_problem(std::string_view s, int64_t lo, int64_t hi);

}  // namespace arb
