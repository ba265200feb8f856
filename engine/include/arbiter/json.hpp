// JSON string escaping, for every command's and the checker's machine-readable output, and
// the UTF-8 check it rests on (shared by the text and XML escapes of the command line).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace arb {

// The contents of a JSON string literal for `s` (without the surrounding quotes). Always
// valid UTF-8: a byte that does not start a well-formed UTF-8 sequence becomes U+FFFD;
// control characters (C0, DEL, C1) are \u escapes.
std::string json_escape(const std::string& s);

// The length (1 to 4) of the well-formed UTF-8 sequence at `s[i]`, or 0 when the bytes
// there are not one (a stray continuation byte, an overlong form, a surrogate, a code
// point past U+10FFFF, or a sequence cut short by the end of `s`).
size_t utf8_sequence(std::string_view s, size_t i);

// The code point of the well-formed sequence of `len` bytes at `s[i]`.
char32_t utf8_decode(std::string_view s, size_t i, size_t len);

}  // namespace arb
