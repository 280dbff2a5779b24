// Reading string values: interns each string once, in order of first use
// (the canonical table, history.hpp), and keeps a history's values all
// integers or all strings. Readers call it in canonical field order per
// operation: expected value, value, result. Errors are thrown as strings.
#pragma once

#include <string>
#include <unordered_map>

#include "linearizability/history.hpp"

namespace warpcheck::detail {

class StringValues {
 public:
  int64_t intern(History& h, const std::string& text) {
    kind(h, true);
    auto [it, fresh] = index_.try_emplace(text, int64_t(h.strings.size()));
    if (fresh) h.strings.push_back(text);
    return it->second;
  }
  // Notes that the history has a value of this kind.
  void kind(History& h, bool strings) {
    if (!decided_) {
      decided_ = true;
      h.meta.string_values = strings;
      if (strings && h.model().id != ModelId::Register && h.model().id != ModelId::CasRegister && h.model().id != ModelId::Kv)
        throw "string values are for the register, cas-register and kv models, not " + std::string(h.model().name);
    } else if (h.meta.string_values != strings) {
      throw std::string("values must be all integers or all strings");
    }
  }

 private:
  bool decided_ = false;
  std::unordered_map<std::string, int64_t> index_;
};

}  // namespace warpcheck::detail
