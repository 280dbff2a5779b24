// Multimap (bag of key/value pairs). insert always adds an instance and
// returns nothing. find returns some live value of the key, or absent.
// erase removes one instance and returns the value it removed, or absent:
// the removed value is what makes the model deterministic on completed
// operations. A pending erase may have removed any instance, so it is the
// one nondeterministic step (one choice per distinct live value).
#pragma once

#include <string>

#include "models/detail/model_base.hpp"
#include "models/result_match.hpp"

namespace warpcheck {

struct MultimapModel : detail::PairsModelBase {
  static constexpr std::string_view name = "multimap";
  static constexpr bool partition_by_key = true;
  // Values are only compared with results and expected values.
  static constexpr bool opaque_values = true;
  static constexpr OpSpec ops[] = {
      {OpKind::Insert, kArgKey | kArgValue, Returns::Nothing},
      {OpKind::Erase, kArgKey, Returns::ValueOrAbsent},
      {OpKind::Find, kArgKey, Returns::ValueOrAbsent},
  };

  // Distinct values of the key, in order; `nth` picks one.
  static uint32_t distinct_values(const State& s, int64_t key, uint32_t nth, uint32_t* index) {
    uint32_t count = 0;
    for (uint32_t i = s.find_key(key); i < s.size() && s.at(i).first == key; ++i) {
      if (i > 0 && s.at(i - 1) == s.at(i)) continue;
      if (count == nth && index) *index = i;
      ++count;
    }
    return count;
  }

  static uint32_t choices(const State& s, const OpData& op, const int64_t*) {
    if (op.kind != OpKind::Erase || !op.pending) return 1;
    uint32_t n = distinct_values(s, op.key, 0, nullptr);
    return n == 0 ? 1 : n;
  }

  // True when the operation cannot change any state (an observer, or an
  // update whose recorded result says it failed): the shrinker may drop it
  // without weakening the evidence.
  static bool leaves_state_unchanged(const OpData& op) {
    return op.kind == OpKind::Find || (op.kind == OpKind::Erase && op.result_kind == ResultKind::Absent);
  }

  // Inserts add their pair; completed erases remove the pair they returned.
  static bool invertible(const OpData& op) { return !op.pending; }
  static void undo(State& s, const OpData& op, const int64_t*) {
    if (op.kind == OpKind::Insert) s.erase_at(s.find_pair(op.key, op.value));
    if (op.kind == OpKind::Erase && op.result_kind == ResultKind::Value) s.insert(op.key, op.result);
  }

  static bool step(State& s, const OpData& op, const int64_t*, uint32_t choice) {
    switch (op.kind) {
      case OpKind::Insert:
        s.insert(op.key, op.value);
        return true;
      case OpKind::Find:
        if (op.pending) return true;
        if (op.result_kind == ResultKind::Absent) return s.find_key(op.key) == s.size();
        return s.find_pair(op.key, op.result) != s.size();
      case OpKind::Erase: {
        if (op.pending) {
          uint32_t at = s.size();
          distinct_values(s, op.key, choice, &at);
          if (at != s.size()) s.erase_at(at);
          return true;
        }
        if (op.result_kind == ResultKind::Absent) return s.find_key(op.key) == s.size();
        uint32_t at = s.find_pair(op.key, op.result);
        if (at == s.size()) return false;
        s.erase_at(at);
        return true;
      }
      default:
        return false;
    }
  }
};

}  // namespace warpcheck
