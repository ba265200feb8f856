// JSON for every command's and the checker's machine-readable output (nlohmann-json), and
// the UTF-8 check the text and XML escapes of the command line rest on.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace arb {

// Keys keep the order they were set in, so every output keeps its documented field order.
using Json = nlohmann::ordered_json;

// `j` as one compact line of JSON. Always valid UTF-8 whatever the strings hold: a byte that
// does not start a well-formed UTF-8 sequence becomes U+FFFD (error_handler_t::replace), and
// no control character is written raw (C0 by nlohmann, DEL and C1 here, as \u escapes), so a
// file name or tag read from a hostile record reaches a terminal harmless.
std::string json_text(const Json& j);

// The length (1 to 4) of the well-formed UTF-8 sequence at `s[i]`, or 0 when the bytes
// there are not one (a stray continuation byte, an overlong form, a surrogate, a code
// point past U+10FFFF, or a sequence cut short by the end of `s`).
size_t utf8_sequence(std::string_view s, size_t i);

// The code point of the well-formed sequence of `len` bytes at `s[i]`.
char32_t utf8_decode(std::string_view s, size_t i, size_t len);

}  // namespace arb
