// Set of int64 keys: insert / erase / contains, each returning a bool
// (insert: the key was absent; erase: the key was present).
#pragma once

#include <string>

#include "models/detail/model_base.hpp"
#include "models/result_match.hpp"

namespace warpcheck {

struct SetModel : detail::KeysModelBase {
  static constexpr std::string_view name = "set";
  static constexpr bool partition_by_key = true;
  static constexpr OpSpec ops[] = {
      {OpKind::Insert, kArgKey, Returns::Bool},
      {OpKind::Erase, kArgKey, Returns::Bool},
      {OpKind::Contains, kArgKey, Returns::Bool},
  };

  // True when the operation cannot change any state (an observer, or an
  // update whose recorded result says it failed): the shrinker may drop it
  // without weakening the evidence.
  static bool leaves_state_unchanged(const OpData& op) {
    return op.kind == OpKind::Contains || (!op.pending && op.result == 0);
  }

  // Completed inserts and erases that succeeded add or remove their key.
  static bool invertible(const OpData& op) { return !op.pending; }
  static void undo(State& s, const OpData& op, const int64_t*) {
    if (op.result == 0) return;  // failed: it changed nothing
    if (op.kind == OpKind::Insert) s.erase_one(op.key);
    if (op.kind == OpKind::Erase) s.insert(op.key);
  }

  static bool step(State& s, const OpData& op, const int64_t*, uint32_t) {
    const bool present = s.contains(op.key);
    switch (op.kind) {
      case OpKind::Insert:
        if (!result_matches_bool(op, !present)) return false;
        if (!present) s.insert(op.key);
        return true;
      case OpKind::Erase:
        if (!result_matches_bool(op, present)) return false;
        if (present) s.erase_one(op.key);
        return true;
      case OpKind::Contains:
        return result_matches_bool(op, present);
      default:
        return false;
    }
  }
};

}  // namespace warpcheck
