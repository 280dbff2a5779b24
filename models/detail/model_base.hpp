// What most models share: a state built from the flat containers (hashed
// incrementally), starting empty, and deterministic steps.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "models/detail/flat_containers.hpp"
#include "models/op.hpp"

namespace warpcheck::detail {

template <class StateType>
struct ModelBase {
  using State = StateType;
  static State initial() { return {}; }
  static uint64_t hash(const State& s) { return s.hash(); }
  // One successor per step; a model with nondeterministic steps hides this.
  static uint32_t choices(const State&, const OpData&, const int64_t*) { return 1; }
  // Lazy operations may always be linearized later rather than sooner,
  // except right before an operation they help (see the search). None here.
  static bool lazy(const OpData&) { return false; }
  // A cheap, read-only test that must hold whenever step() succeeds, so the
  // search can skip copying the state for steps bound to fail.
  static bool admits(const State&, const OpData&, const int64_t*) { return true; }
  // Invertible operations: once their step succeeds, their effect is fixed
  // (the same on every state they succeed on), so the state after a set of
  // them does not depend on their order; undo() reverses a successful step,
  // and a failed step leaves the state as it was. The search then stores no
  // state copies for them. Observers need none of this. None here.
  static bool invertible(const OpData&) { return false; }
  static void undo(State&, const OpData&, const int64_t*) {}
  static bool helps(const OpData&, const OpData&, const int64_t*) { return false; }
  // Anchors and the keys lazy operations supply (the search's blocks; see
  // linearizability/detail/search.hpp). None here.
  static bool is_anchor(const OpData&) { return false; }
  static std::span<const int64_t> anchor_keys(const OpData&, const int64_t*) { return {}; }
  static std::span<const int64_t> supplied_keys(const OpData&, const int64_t*) { return {}; }
  static bool admits_after(const StateType&, const OpData&, std::span<const OpData* const>, const int64_t*) { return false; }
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
