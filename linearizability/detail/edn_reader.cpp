#include "linearizability/detail/edn_reader.hpp"

#include <cctype>
#include <optional>
#include <unordered_set>

#include "linearizability/detail/utf8.hpp"
#include "models/base/long_step.hpp"
#include "models/base/quote.hpp"

namespace warpcheck::detail {

const EdnValue* EdnValue::get(std::string_view name) const {
  if (type != Type::Map) return nullptr;
  for (size_t i = 0; i + 1 < items.size(); i += 2)
    if (items[i].is_keyword(name)) return &items[i + 1];
  return nullptr;
}

// EDN forbids repeated map keys; which value a reader keeps would be a
// guess, and the guess can change a verdict. Scalar keys are compared by
// type and text (collections as keys never name a field we read).
void EdnReader::check_unique_keys(const EdnValue& map) const {
  std::unordered_set<std::string> seen;
  for (size_t i = 0; i < map.items.size(); i += 2) {
    const EdnValue& k = map.items[i];
    char tag;
    switch (k.type) {
      case EdnValue::Type::Keyword: tag = ':'; break;
      case EdnValue::Type::Symbol: tag = '\''; break;
      case EdnValue::Type::String: tag = '"'; break;
      case EdnValue::Type::Int: tag = '#'; break;
      case EdnValue::Type::Bool: tag = 'b'; break;
      case EdnValue::Type::Nil: tag = 'n'; break;
      default: continue;
    }
    std::string id(1, tag);
    id += k.type == EdnValue::Type::Int || k.type == EdnValue::Type::Bool ? std::to_string(k.integer) : k.text;
    if (!seen.insert(id).second)
      throw Error{k.line, k.column, "duplicate map key " + detail::quoted(tag == ':' ? id : id.substr(1))};
  }
}

char EdnReader::advance() {
  char c = s_[pos_++];
  if (c == '\n') { ++line_; col_ = 1; } else { ++col_; }
  return c;
}

void EdnReader::skip_space() {
  while (pos_ < s_.size()) {
    char c = s_[pos_];
    if (std::isspace(static_cast<unsigned char>(c)) || c == ',') {
      advance();
    } else if (c == ';') {
      while (pos_ < s_.size() && s_[pos_] != '\n') advance();
    } else {
      break;
    }
  }
}

bool EdnReader::next(EdnValue& out) {
  skip_space();
  if (pos_ >= s_.size()) return false;
  read(out, 0);
  return true;
}

void EdnReader::read_sequence(EdnValue& out, char close, int depth) {
  while (true) {
    skip_space();
    if (pos_ >= s_.size()) fail(std::string("unterminated collection, expected '") + close + "'");
    if (s_[pos_] == close) { advance(); return; }
    if (s_[pos_] == '#' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '_') {  // discard
      advance(); advance();
      EdnValue ignored;
      skip_space();
      if (pos_ >= s_.size()) fail("#_ at end of input");
      read(ignored, depth + 1);
      continue;
    }
    if (out.items.size() % 4096 == 4095) poll_long_step();
    out.items.emplace_back();
    read(out.items.back(), depth + 1);
  }
}

void EdnReader::read(EdnValue& out, int depth) {
  if (depth > 64) fail("nesting deeper than 64 levels");
  skip_space();
  if (pos_ >= s_.size()) fail("unexpected end of input");
  out.line = line_;
  out.column = col_;
  char c = s_[pos_];
  using T = EdnValue::Type;
  switch (c) {
    case '{': advance(); out.type = T::Map; read_sequence(out, '}', depth);
      if (out.items.size() % 2) fail("map with an odd number of forms");
      check_unique_keys(out);
      return;
    case '[': advance(); out.type = T::Vector; read_sequence(out, ']', depth); return;
    case '(': advance(); out.type = T::List; read_sequence(out, ')', depth); return;
    case '}': case ']': case ')': fail("unexpected " + quoted_char(c));
    case '#': {
      advance();
      if (pos_ < s_.size() && s_[pos_] == '{') { advance(); out.type = T::Set; read_sequence(out, '}', depth); return; }
      // Tagged literal: skip the tag symbol, read the form it tags.
      size_t start = pos_;
      while (pos_ < s_.size() && !std::isspace(static_cast<unsigned char>(s_[pos_])) && s_[pos_] != '{' && s_[pos_] != '[' && s_[pos_] != '"' && s_[pos_] != '(') advance();
      if (pos_ == start) fail("bad dispatch '#'");
      read(out, depth + 1);
      return;
    }
    case '"':
      advance();
      out.type = T::String;
      read_string(out.text);
      return;
    default: break;
  }
  // A token: number, keyword, character, or symbol (nil, true, false, others).
  size_t start = pos_;
  if (c == '\\') {  // a character: the one after the backslash, whatever it is, then a name
    advance();
    if (pos_ >= s_.size()) fail("a backslash at the end of the input");
    advance();
  }
  while (pos_ < s_.size()) {
    char ch = s_[pos_];
    if (std::isspace(static_cast<unsigned char>(ch)) || ch == ',' || ch == '{' || ch == '}' || ch == '[' || ch == ']' ||
        ch == '(' || ch == ')' || ch == '"' || ch == ';' || ch == '\\')
      break;
    advance();
  }
  std::string_view tok = s_.substr(start, pos_ - start);
  if (tok.empty()) fail("unexpected character " + quoted_char(c));
  if (tok[0] == ':') {
    if (tok.size() == 1) fail("empty keyword");
    out.type = T::Keyword;
    out.text = std::string(tok.substr(1));
    return;
  }
  bool numeric = std::isdigit(static_cast<unsigned char>(tok[0])) ||
                 ((tok[0] == '-' || tok[0] == '+') && tok.size() > 1 && std::isdigit(static_cast<unsigned char>(tok[1])));
  if (numeric) {
    std::string_view digits = tok;
    bool negative = digits[0] == '-';
    if (digits[0] == '-' || digits[0] == '+') digits.remove_prefix(1);
    if (!digits.empty() && digits.back() == 'N') digits.remove_suffix(1);  // bigint suffix
    uint64_t mag = 0;
    const uint64_t limit = negative ? uint64_t(INT64_MAX) + 1 : uint64_t(INT64_MAX);
    for (char d : digits) {
      if (!std::isdigit(static_cast<unsigned char>(d))) fail("unsupported number " + detail::quoted(tok) + " (integers only)");
      if (mag > (limit - uint64_t(d - '0')) / 10) fail("integer " + detail::quoted(tok) + " does not fit in 64 bits");
      mag = mag * 10 + uint64_t(d - '0');
    }
    out.type = T::Int;
    out.integer = negative ? int64_t(0 - mag) : int64_t(mag);
    return;
  }
  if (tok[0] == '\\') {  // a character literal: not a value of any model, but read as Clojure reads it
    check_character(tok);
    out.type = T::Symbol;
    out.text = std::string(tok);
    return;
  }
  if (tok == "nil") { out.type = T::Nil; return; }
  if (tok == "true" || tok == "false") { out.type = T::Bool; out.integer = tok == "true"; return; }
  out.type = T::Symbol;
  out.text = std::string(tok);
}

uint32_t EdnReader::read_digits(int base, int count) {
  uint32_t v = 0;
  for (int i = 0; i < count; ++i) {
    if (pos_ >= s_.size()) fail("unterminated string");
    const char d = advance();
    const int x = digit_value(d, base);
    if (x < 0) fail("invalid digit " + quoted_char(d) + " in a " + (base == 16 ? "\\u" : "octal") + " escape");
    v = v * uint32_t(base) + uint32_t(x);
  }
  return v;
}

void EdnReader::read_string(std::string& out) {
  const size_t raw_from = out.size();
  while (true) {
    if (pos_ >= s_.size()) fail("unterminated string");
    const char ch = advance();
    if (ch == '"') break;
    if (ch != '\\') {
      out += ch;
      continue;
    }
    if (pos_ >= s_.size()) fail("unterminated string");
    const char e = advance();
    switch (e) {
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case 'n': out += '\n'; break;
      case '\\': out += '\\'; break;
      case '"': out += '"'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'u': {
        const uint32_t unit = read_digits(16, 4);
        std::optional<uint32_t> next;
        if (high_surrogate(unit) && s_.substr(pos_, 2) == "\\u") {
          advance();
          advance();
          next = read_digits(16, 4);
        }
        const std::optional<uint32_t> cp = code_point(unit, next);
        if (!cp) fail("a lone surrogate \\u escape (UTF-8 cannot hold it)");
        append_utf8(out, *cp);
        break;
      }
      default: {
        if (e < '0' || e > '7') fail("unsupported escape character \\" + std::string(1, e));
        // Octal: up to three digits, at most \377 (Clojure's reader: a
        // shorter one ends only at whitespace or a macro character).
        uint32_t v = uint32_t(e - '0');
        for (int i = 1; i < 3 && pos_ < s_.size(); ++i) {
          const char d = s_[pos_];
          if (std::isspace(static_cast<unsigned char>(d)) || d == ',' || std::string_view("\";'@^`~()[]{}\\%#").find(d) != std::string_view::npos)
            break;
          if (digit_value(d, 8) < 0) fail("invalid digit " + quoted_char(d) + " in an octal escape");
          v = v * 8 + uint32_t(digit_value(advance(), 8));
        }
        if (v > 0377) fail("octal escape must be in range [0, 377]");
        append_utf8(out, v);
      }
    }
  }
  if (!valid_utf8(std::string_view(out).substr(raw_from))) fail("a string that is not UTF-8");
}

void EdnReader::check_character(std::string_view token) {
  const std::string_view name = token.substr(1);
  if (name.size() == 1) return;
  static constexpr std::string_view kNamed[] = {"newline", "space", "tab", "backspace", "formfeed", "return"};
  for (std::string_view n : kNamed)
    if (name == n) return;
  // The value of name's digits after its first letter in `base`, or nullopt.
  auto number = [&](int base) -> std::optional<uint32_t> {
    uint32_t v = 0;
    for (const char d : name.substr(1)) {
      const int x = digit_value(d, base);
      if (x < 0) return std::nullopt;
      v = v * uint32_t(base) + uint32_t(x);
    }
    return v;
  };
  if (name[0] == 'u' && name.size() == 5) {
    if (const auto unit = number(16)) {
      if (!high_surrogate(*unit) && !low_surrogate(*unit)) return;
      fail("invalid character code " + detail::quoted(token));
    }
  }
  if (name[0] == 'o' && name.size() >= 2 && name.size() <= 4)
    if (const auto code = number(8); code && *code <= 0377) return;
  // One UTF-8 character written raw is one character: one UTF-16 unit, as
  // a Java char (a character past U+FFFF is two, and refused).
  if (valid_utf8(name) && uint8_t(name[0]) >= 0xC0 && uint8_t(name[0]) < 0xF0) {
    const size_t len = uint8_t(name[0]) >= 0xE0 ? 3 : 2;
    if (len == name.size()) return;
  }
  fail("unsupported character " + detail::quoted(token));
}

}  // namespace warpcheck::detail
