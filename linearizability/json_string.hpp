// JSON string literals, written once for every writer in the project
// (reports, JSON lines, the HTML report's data, stress configurations).
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace warpcheck {

// Appends s as a quoted JSON string literal to out. Control characters
// become \u escapes. inside_script: also escapes <, > and &, so that the
// literal can sit inside an HTML <script> element ("</script>" never appears).
inline void append_json_string(std::string& out, std::string_view s, bool inside_script = false) {
  out += '"';
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    const bool html = inside_script && (c == '<' || c == '>' || c == '&');
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (u < 0x20 || html) {
      char esc[8];
      std::snprintf(esc, sizeof esc, "\\u%04x", unsigned(u));
      out += esc;
    } else {
      out += c;
    }
  }
  out += '"';
}

inline std::string json_string(std::string_view s, bool inside_script = false) {
  std::string out;
  append_json_string(out, s, inside_script);
  return out;
}

}  // namespace warpcheck
