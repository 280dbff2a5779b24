// UTF-8 as every reader stores text: one canonical form, whatever escapes
// wrote it. Whether bytes are well-formed UTF-8 (RFC 3629: shortest forms
// only, no surrogates, nothing past U+10FFFF); a code point appended; and a
// \uXXXX escape's UTF-16 unit joined with the low surrogate that must
// follow a high one (JSON's RFC 8259, Clojure's reader alike), so that an
// escaped character is stored as the same bytes as the character written
// raw. Text read from a file is checked before it is printed or copied
// into another format.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace warpcheck::detail {

inline bool valid_utf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const uint8_t b = uint8_t(s[i]);
    if (b < 0x80) {
      ++i;
      continue;
    }
    size_t n;
    uint32_t cp;
    if ((b & 0xe0) == 0xc0) n = 1, cp = b & 0x1f;
    else if ((b & 0xf0) == 0xe0) n = 2, cp = b & 0x0f;
    else if ((b & 0xf8) == 0xf0) n = 3, cp = b & 0x07;
    else return false;
    for (size_t k = 1; k <= n; ++k) {
      if (i + k >= s.size()) return false;
      const uint8_t c = uint8_t(s[i + k]);
      if ((c & 0xc0) != 0x80) return false;
      cp = cp << 6 | (c & 0x3f);
    }
    static constexpr uint32_t kShortest[] = {0, 0x80, 0x800, 0x10000};
    if (cp < kShortest[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += n + 1;
  }
  return true;
}

inline void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xC0 | (cp >> 6));
    out += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += char(0xE0 | (cp >> 12));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  } else {
    out += char(0xF0 | (cp >> 18));
    out += char(0x80 | ((cp >> 12) & 0x3F));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  }
}

// The value of an escape's digit `d` in `base` (8 or 16), or -1.
inline int digit_value(char d, int base) {
  const int v = d >= '0' && d <= '9' ? d - '0' : d >= 'a' && d <= 'f' ? d - 'a' + 10 : d >= 'A' && d <= 'F' ? d - 'A' + 10 : -1;
  return v < base ? v : -1;
}

inline bool high_surrogate(uint32_t u) { return u >= 0xD800 && u <= 0xDBFF; }
inline bool low_surrogate(uint32_t u) { return u >= 0xDC00 && u <= 0xDFFF; }

// The code point of a UTF-16 unit, with the unit after it when it is a
// high surrogate; nullopt for a lone surrogate (UTF-8 cannot hold one).
inline std::optional<uint32_t> code_point(uint32_t unit, std::optional<uint32_t> next) {
  if (low_surrogate(unit)) return std::nullopt;
  if (!high_surrogate(unit)) return unit;
  if (!next || !low_surrogate(*next)) return std::nullopt;
  return 0x10000 + ((unit - 0xD800) << 10) + (*next - 0xDC00);
}

}  // namespace warpcheck::detail
