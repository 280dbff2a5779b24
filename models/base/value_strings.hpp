// String values. A history whose values are strings interns them: every
// value, expected value and read result is an index into the history's
// string table, equal strings having equal indices, so models compare them
// as integers. Only a key-value append needs the text (a read is compared
// with the pieces appended since the last write); the checker names the
// table of the history it is stepping, per thread, while it searches or
// replays (ScopedValueStrings).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace warpcheck::detail {

inline thread_local const std::vector<std::string>* value_strings = nullptr;

class ScopedValueStrings {
 public:
  explicit ScopedValueStrings(const std::vector<std::string>& strings) : saved_(value_strings) { value_strings = &strings; }
  ~ScopedValueStrings() { value_strings = saved_; }
  ScopedValueStrings(const ScopedValueStrings&) = delete;
  ScopedValueStrings& operator=(const ScopedValueStrings&) = delete;

 private:
  const std::vector<std::string>* saved_;
};

// The text of string value `id` ("" when no table is named: never the
// case where appends are checked).
inline std::string_view value_text(int64_t id) {
  if (!value_strings || id < 0 || size_t(id) >= value_strings->size()) return {};
  return (*value_strings)[size_t(id)];
}

}  // namespace warpcheck::detail
