// User text inside error messages: a file may hold a megabyte-long name or
// raw binary where a name was expected, and a message must stay one
// readable line. Bytes outside printable ASCII are escaped (\xNN), and long
// text is cut with its full length said.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace warpcheck::detail {

inline constexpr size_t kQuotedBytes = 64;

// Appends `text`'s bytes outside printable ASCII as \xNN (and, for text
// between quotes, its quote marks and backslashes escaped).
inline void append_escaped(std::string& out, std::string_view text, bool in_quotes) {
  for (const char ch : text) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (in_quotes && (c == '"' || c == '\\')) {
      out += '\\';
      out += char(c);
    } else if (c < 0x20 || c >= 0x7f) {
      char esc[8];
      std::snprintf(esc, sizeof esc, "\\x%02x", c);
      out += esc;
    } else {
      out += char(c);
    }
  }
}

// `text` between double quotes, escaped and cut to `max_bytes` of it.
inline std::string quoted(std::string_view text, size_t max_bytes = kQuotedBytes) {
  std::string out = "\"";
  append_escaped(out, text.substr(0, max_bytes), true);
  out += '"';
  if (text.size() > max_bytes) out += "... (" + std::to_string(text.size()) + " bytes)";
  return out;
}

// `text` with nothing a terminal acts on: a configuration shown as it is.
inline std::string escaped(std::string_view text) {
  std::string out;
  append_escaped(out, text, false);
  return out;
}

// One character as it would appear inside quoted().
inline std::string quoted_char(char c) { return quoted(std::string_view(&c, 1)); }

}  // namespace warpcheck::detail
