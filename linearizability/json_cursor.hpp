// A strict cursor over one line of JSON: exactly what the JSON-lines history
// format needs (objects, strings, exact 64-bit integers, bools, null,
// arrays), with errors that carry the column. Floats are rejected: nothing
// in a history is fractional, and reading one as a double would lose bits.
// Public: stress reads its own JSON (campaign plans, shard results, a run's
// configuration) with the same strictness.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "models/base/quote.hpp"

namespace warpcheck::detail {

class JsonCursor {
 public:
  struct Error {
    size_t column;  // 1-based
    std::string message;
  };

  explicit JsonCursor(std::string_view text) : s_(text) {}

  size_t column() const { return pos_ + 1; }
  [[noreturn]] void fail(const std::string& message) const { throw Error{column(), message}; }

  void skip_space() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\r' || s_[pos_] == '\n')) ++pos_;
  }
  char peek() {
    skip_space();
    return pos_ < s_.size() ? s_[pos_] : '\0';
  }
  bool at_end() { return peek() == '\0' && pos_ >= s_.size(); }
  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'" + found());
    ++pos_;
  }
  bool consume(char c) {
    if (peek() != c) return false;
    ++pos_;
    return true;
  }
  bool consume_literal(std::string_view lit) {
    skip_space();
    if (s_.substr(pos_, lit.size()) != lit) return false;
    size_t end = pos_ + lit.size();
    if (end < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[end])) || s_[end] == '_')) return false;
    pos_ = end;
    return true;
  }

  std::string parse_string();
  uint64_t parse_u64();
  int64_t parse_i64();
  bool parse_bool();
  // Skips any JSON value and returns its exact text.
  std::string_view skip_value(int depth = 0);

  // Iterates the members of an object: calls on_member(key) with the cursor
  // placed on the member's value; on_member must consume the value. A name
  // that repeats is an error: which of the two values counts would be a
  // guess, and the guess can change a verdict.
  template <class F>
  void parse_object(F&& on_member) {
    expect('{');
    if (consume('}')) return;
    MemberNames names;
    do {
      if (peek() != '"') fail("expected a member name" + found());
      const size_t at = pos_;
      std::string key = parse_string();
      if (!names.insert(key)) {
        pos_ = at;
        fail("duplicate member " + detail::quoted(key));
      }
      expect(':');
      on_member(key);
    } while (consume(','));
    expect('}');
  }

  // Iterates an array: calls on_item() with the cursor on each element.
  template <class F>
  void parse_array(F&& on_item) {
    expect('[');
    if (consume(']')) return;
    do on_item(); while (consume(','));
    expect(']');
  }

 private:
  uint32_t hex4();  // the four hex digits of a \u escape: a UTF-16 unit

  // The names of one object's members: a short list for operation lines, a
  // hash set once an object (a run's configuration) has many.
  class MemberNames {
   public:
    bool insert(const std::string& name) {
      if (set_.empty()) {
        for (const std::string& n : list_)
          if (n == name) return false;
        list_.push_back(name);
        if (list_.size() > 16) set_.insert(list_.begin(), list_.end());
        return true;
      }
      return set_.insert(name).second;
    }

   private:
    std::vector<std::string> list_;
    std::unordered_set<std::string> set_;
  };

  std::string found() {
    skip_space();
    if (pos_ >= s_.size()) return ", found end of line";
    return ", found " + quoted_char(s_[pos_]);
  }
  // Digits of an integer literal (after an optional '-'); rejects fractions.
  std::string_view integer_digits();
  void skip_number();

  std::string_view s_;
  size_t pos_ = 0;
};

// Why `text` is not one line of JSON holding one object (a run's
// configuration, as a JSON lines header carries it), or nullopt.
std::optional<std::string> json_object_line_error(std::string_view text);

}  // namespace warpcheck::detail
