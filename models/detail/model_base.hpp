// What the models of models/ share: a State alias and an empty initial
// state; their states hash themselves (ModelTraits' default hash calls
// s.hash()). A convenience only: every optional capability's default comes
// from models/model_traits.hpp, and a model needs nothing from here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "models/detail/flat_containers.hpp"
#include "models/op.hpp"

namespace warpcheck::detail {

template <class StateType>
struct ModelBase {
  using State = StateType;
  static State initial() { return {}; }
};

// Models whose state is (key, value) pairs: map, multimap, kv.
struct PairsModelBase : ModelBase<FlatPairs> {
  static std::string describe(const FlatPairs& s) {
    std::string out = "{";
    for (const auto& [k, v] : s) {
      if (out.size() > 1) out += ',';
      out.append(std::to_string(k)).append(":").append(std::to_string(v));
    }
    return out + "}";
  }
  // The first (smallest) value of the operation's key, if any: what a find
  // or read returns now (for generating histories).
  static std::optional<int64_t> current_value(const FlatPairs& s, const OpData& op) {
    uint32_t at = s.find_key(op.key);
    return at == s.size() ? std::nullopt : std::optional<int64_t>(s.at(at).second);
  }
};

// Sorted keys as "[1,2,3]": the first 64, then how many there are (a
// queue's state can hold millions).
template <class Keys>
std::string describe_keys(const Keys& keys, uint32_t size) {
  std::string out = "[";
  uint32_t shown = 0;
  for (int64_t k : keys) {
    if (shown == 64) return out + ",... (" + std::to_string(size) + " keys)]";
    if (shown++) out += ',';
    out += std::to_string(k);
  }
  return out + "]";
}

// Models whose state is a sorted set of keys: set.
struct KeysModelBase : ModelBase<FlatMultiset> {
  static std::string describe(const FlatMultiset& s) { return describe_keys(s, s.size()); }
};

}  // namespace warpcheck::detail
