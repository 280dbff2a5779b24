// A reader for the EDN subset that Jepsen histories use: maps, vectors,
// lists, sets, keywords, symbols, strings, integers, nil, booleans, tagged
// literals (#jepsen.history.Op{...} reads as its map) and #_ discards.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace warpcheck::detail {

struct EdnValue {
  enum class Type { Nil, Bool, Int, Keyword, Symbol, String, Vector, List, Map, Set };
  Type type = Type::Nil;
  int64_t integer = 0;   // Int, Bool
  std::string text;      // Keyword (without ':'), Symbol, String
  std::vector<EdnValue> items;  // Vector, List, Set; Map as key, value, key, value...
  size_t line = 0, column = 0;

  // The value of keyword key `name` in a map, or nullptr.
  const EdnValue* get(std::string_view name) const;
  bool is_keyword(std::string_view name) const { return type == Type::Keyword && text == name; }
};

class EdnReader {
 public:
  struct Error {
    size_t line, column;
    std::string message;
  };

  explicit EdnReader(std::string_view text) : s_(text) {}
  // Reads the next form; false at the end of input.
  bool next(EdnValue& out);

 private:
  void read(EdnValue& out, int depth);
  void read_sequence(EdnValue& out, char close, int depth);
  void skip_space();
  void check_unique_keys(const EdnValue& map) const;
  [[noreturn]] void fail(const std::string& message) const { throw Error{line_, col_, message}; }
  char advance();
  // Clojure's reader: a string's escapes (\t \r \n \\ \" \b \f, \uXXXX
  // with its surrogate pair, octal \0 to \377), any other refused; a
  // character literal's name (\a, \newline, \space, \uXXXX, \oNNN).
  void read_string(std::string& out);
  void check_character(std::string_view token);
  uint32_t read_digits(int base, int count);

  std::string_view s_;
  size_t pos_ = 0, line_ = 1, col_ = 1;
};

}  // namespace warpcheck::detail
