// Whether bytes are well-formed UTF-8 (RFC 3629: shortest forms only, no
// surrogates, nothing past U+10FFFF). Text read from a file is checked
// before it is printed or copied into another format.
#pragma once

#include <cstdint>
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

}  // namespace warpcheck::detail
