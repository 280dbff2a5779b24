// The benchmark programs' numeric flags, parsed one way: digits only, no
// sign, no trailing text, within a bound.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace warpcheck::bench {

// A whole decimal number of at most `max`.
inline std::optional<uint64_t> whole_number(std::string_view text, uint64_t max = UINT64_MAX) {
  if (text.empty()) return std::nullopt;
  uint64_t v = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    const uint64_t digit = uint64_t(c - '0');
    if (v > (max - digit) / 10) return std::nullopt;  // past `max` (or past 64 bits)
    v = v * 10 + digit;
  }
  return v;
}

// Whole numbers separated by `separator` ("10000,100000"); empty on any bad item.
inline std::vector<uint64_t> whole_numbers(std::string_view text, char separator, uint64_t max = UINT64_MAX) {
  std::vector<uint64_t> out;
  for (;;) {
    const size_t at = text.find(separator);
    const auto v = whole_number(text.substr(0, at), max);
    if (!v) return {};
    out.push_back(*v);
    if (at == std::string_view::npos) return out;
    text.remove_prefix(at + 1);
  }
}

}  // namespace warpcheck::bench
