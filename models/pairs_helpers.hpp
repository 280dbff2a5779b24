// Helpers shared by the models whose state is (key, value) pairs.
#pragma once

#include <optional>
#include <string>

#include "models/detail/flat_containers.hpp"

namespace warpcheck {

inline std::string describe_pairs(const detail::FlatPairs& s) {
  std::string out = "{";
  for (const auto& [k, v] : s) out += (out.size() > 1 ? "," : "") + std::to_string(k) + ":" + std::to_string(v);
  return out + "}";
}

// The first (smallest) value stored under `key`, if any.
inline std::optional<int64_t> first_value(const detail::FlatPairs& s, int64_t key) {
  uint32_t at = s.find_key(key);
  return at == s.size() ? std::nullopt : std::optional<int64_t>(s.at(at).second);
}

}  // namespace warpcheck
