#include "arbiter/numbers.hpp"

namespace arb {

namespace {
bool digit(char c) {
  return c >= '0' && c <= '9';
}
}  // namespace

std::optional<uint64_t> parse_unsigned(std::string_view s, uint64_t lo, uint64_t hi) {
  if (s.empty()) return std::nullopt;
  uint64_t v = 0;
  for (char c : s) {
    if (!digit(c)) return std::nullopt;
    uint64_t d = static_cast<uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10) return std::nullopt;
    v = v * 10 + d;
  }
  if (v < lo || v > hi) return std::nullopt;
  return v;
}

std::optional<int64_t> parse_integer(std::string_view s, int64_t lo, int64_t hi) {
  bool neg = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    if (lo >= 0 && s[0] == '-') return std::nullopt;
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  // Magnitudes up to 2^63 (the magnitude of INT64_MIN).
  auto mag = parse_unsigned(s, 0, uint64_t{1} << 63);
  if (!mag) return std::nullopt;
  int64_t v;
  if (neg)
    v = *mag == (uint64_t{1} << 63) ? INT64_MIN : -static_cast<int64_t>(*mag);
  else if (*mag > static_cast<uint64_t>(INT64_MAX))
    return std::nullopt;
  else
    v = static_cast<int64_t>(*mag);
  if (v < lo || v > hi) return std::nullopt;
  return v;
}

std::string integer_problem(std::string_view s, int64_t lo, int64_t hi) {
  std::string_view d = s;
  if (!d.empty() && (d[0] == '-' || d[0] == '+')) d.remove_prefix(1);
  bool all_digits = !d.empty();
  for (char c : d) all_digits = all_digits && digit(c);
  if (!all_digits) return "expected a number";
  return "must be between " + std::to_string(lo) + " and " + std::to_string(hi);
}

}  // namespace arb
