#include "linearizability/json_cursor.hpp"

#include <cctype>

#include "linearizability/detail/utf8.hpp"

namespace warpcheck::detail {


std::string JsonCursor::parse_string() {
  expect('"');
  std::string out;
  while (true) {
    if (pos_ >= s_.size()) fail("unterminated string");
    char c = s_[pos_++];
    if (c == '"') {
      if (!valid_utf8(out)) fail("a string that is not UTF-8");
      return out;
    }
    if (static_cast<unsigned char>(c) < 0x20) fail("control character in string");
    if (c != '\\') {
      out += c;
      continue;
    }
    if (pos_ >= s_.size()) fail("unterminated escape");
    char e = s_[pos_++];
    switch (e) {
      case '"': out += '"'; break;
      case '\\': out += '\\'; break;
      case '/': out += '/'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'u': {
        const uint32_t unit = hex4();
        std::optional<uint32_t> next;
        if (high_surrogate(unit) && s_.substr(pos_, 2) == "\\u") {
          pos_ += 2;
          next = hex4();
        }
        const std::optional<uint32_t> cp = code_point(unit, next);
        if (!cp) fail("a lone surrogate \\u escape (UTF-8 cannot hold it)");
        append_utf8(out, *cp);
        break;
      }
      default: fail("bad escape \\" + quoted_char(e));
    }
  }
}

uint32_t JsonCursor::hex4() {
  if (pos_ + 4 > s_.size()) fail("truncated \\u escape");
  uint32_t unit = 0;
  for (int i = 0; i < 4; ++i) {
    const int v = digit_value(s_[pos_++], 16);
    if (v < 0) fail("bad \\u escape");
    unit = unit * 16 + uint32_t(v);
  }
  return unit;
}

std::string_view JsonCursor::integer_digits() {
  skip_space();
  size_t start = pos_;
  while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  if (pos_ == start) fail("expected an integer" + found());
  if (pos_ < s_.size() && (s_[pos_] == '.' || s_[pos_] == 'e' || s_[pos_] == 'E'))
    fail("expected an integer, found a fractional number");
  if (pos_ - start > 1 && s_[start] == '0') fail("leading zero in integer");
  return s_.substr(start, pos_ - start);
}

uint64_t JsonCursor::parse_u64() {
  if (peek() == '-') fail("expected a non-negative integer");
  uint64_t v = 0;
  for (char c : integer_digits()) {
    uint64_t d = uint64_t(c - '0');
    if (v > (UINT64_MAX - d) / 10) fail("integer does not fit in 64 bits");
    v = v * 10 + d;
  }
  return v;
}

int64_t JsonCursor::parse_i64() {
  const bool negative = consume('-');
  uint64_t mag = 0;
  const uint64_t limit = negative ? uint64_t(INT64_MAX) + 1 : uint64_t(INT64_MAX);
  for (char c : integer_digits()) {
    uint64_t d = uint64_t(c - '0');
    if (mag > (limit - d) / 10) fail("integer does not fit in a signed 64-bit value");
    mag = mag * 10 + d;
  }
  return negative ? int64_t(0 - mag) : int64_t(mag);
}

void JsonCursor::skip_number() {
  // Full JSON number grammar: a configuration may hold fractions.
  auto digits = [&] {
    size_t start = pos_;
    while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    if (pos_ == start) fail("malformed number");
  };
  consume('-');
  digits();
  if (pos_ < s_.size() && s_[pos_] == '.') {
    ++pos_;
    digits();
  }
  if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
    ++pos_;
    if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
    digits();
  }
}

bool JsonCursor::parse_bool() {
  if (consume_literal("true")) return true;
  if (consume_literal("false")) return false;
  fail("expected true or false" + found());
}

std::string_view JsonCursor::skip_value(int depth) {
  if (depth > 64) fail("nesting deeper than 64 levels");
  char c = peek();
  size_t start = pos_;
  if (c == '{') {
    parse_object([&](const std::string&) { skip_value(depth + 1); });
  } else if (c == '[') {
    parse_array([&] { skip_value(depth + 1); });
  } else if (c == '"') {
    parse_string();
  } else if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) {
    skip_number();
  } else if (!consume_literal("true") && !consume_literal("false") && !consume_literal("null")) {
    fail("expected a JSON value" + found());
  }
  return s_.substr(start, pos_ - start);
}

std::optional<std::string> json_object_line_error(std::string_view text) {
  if (text.find_first_of("\n\r") != std::string_view::npos) return "it is not one line";
  try {
    JsonCursor c(text);
    if (c.peek() != '{') c.fail("not a JSON object");
    c.skip_value();
    if (!c.at_end()) c.fail("text after its object");
  } catch (const JsonCursor::Error& e) {
    return "column " + std::to_string(e.column) + ": " + e.message;
  }
  return std::nullopt;
}

}  // namespace warpcheck::detail
