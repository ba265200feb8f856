#include "arbiter/json.hpp"

#include <cstdio>

namespace arb {

size_t utf8_sequence(std::string_view s, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b = byte(i);
  if (b < 0x80) return 1;
  size_t len;
  char32_t min;
  if (b >= 0xC2 && b <= 0xDF) {
    len = 2;
    min = 0x80;
  } else if (b >= 0xE0 && b <= 0xEF) {
    len = 3;
    min = 0x800;
  } else if (b >= 0xF0 && b <= 0xF4) {
    len = 4;
    min = 0x10000;
  } else {
    return 0;  // a continuation byte, C0/C1 (overlong two-byte forms) or F5..FF
  }
  if (i + len > s.size()) return 0;
  for (size_t k = 1; k < len; ++k)
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  char32_t cp = utf8_decode(s, i, len);
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

char32_t utf8_decode(std::string_view s, size_t i, size_t len) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  if (len == 1) return byte(i);
  char32_t cp = byte(i) & (0xFF >> (len + 1));
  for (size_t k = 1; k < len; ++k) cp = (cp << 6) | (byte(i + k) & 0x3F);
  return cp;
}

std::string json_text(const Json& j) {
  const std::string raw = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  // DEL and C1 (U+0080..U+009F, C2 80..C2 9F in UTF-8) only occur inside strings here, where
  // a \u escape stands for them.
  std::string o;
  o.reserve(raw.size());
  for (size_t i = 0; i < raw.size(); ++i) {
    const unsigned char b = static_cast<unsigned char>(raw[i]);
    unsigned cp = 0;
    if (b == 0x7F) {
      cp = 0x7F;
    } else if (b == 0xC2 && i + 1 < raw.size() && static_cast<unsigned char>(raw[i + 1]) <= 0x9F) {
      cp = static_cast<unsigned char>(raw[++i]);
    } else {
      o += raw[i];
      continue;
    }
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\u%04x", cp);
    o += buf;
  }
  return o;
}

}  // namespace arb
