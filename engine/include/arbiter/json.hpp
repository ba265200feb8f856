// JSON string escaping, for every command's and the checker's machine-readable output.
#pragma once

#include <string>

namespace arb {

// The contents of a JSON string literal for `s` (without the surrounding quotes).
std::string json_escape(const std::string& s);

}  // namespace arb
