// Unique-key map: insert-if-absent (returns whether it inserted), upsert
// (insert or overwrite, returns nothing), erase (returns whether a key was
// removed), find (returns the value, or absent).
#pragma once

#include <string>

#include "models/detail/model_base.hpp"
#include "models/result_match.hpp"

namespace warpcheck {

struct MapModel : detail::PairsModelBase {
  static constexpr std::string_view name = "map";
  static constexpr bool partition_by_key = true;
  // Values are only compared with results and expected values.
  static constexpr bool opaque_values = true;
  static constexpr OpSpec ops[] = {
      {OpKind::Insert, kArgKey | kArgValue, Returns::Bool},
      {OpKind::Upsert, kArgKey | kArgValue, Returns::Nothing},
      {OpKind::Erase, kArgKey, Returns::Bool},
      {OpKind::Find, kArgKey, Returns::ValueOrAbsent},
  };

  // True when the operation cannot change any state (an observer, or an
  // update whose recorded result says it failed): the shrinker may drop it
  // without weakening the evidence.
  static bool leaves_state_unchanged(const OpData& op) {
    return op.kind == OpKind::Find || (op.kind != OpKind::Upsert && !op.pending && op.result == 0);
  }

  static bool step(State& s, const OpData& op, const int64_t*, uint32_t) {
    const uint32_t at = s.find_key(op.key);
    const bool present = at != s.size();
    switch (op.kind) {
      case OpKind::Insert:
        if (!result_matches_bool(op, !present)) return false;
        if (!present) s.insert(op.key, op.value);
        return true;
      case OpKind::Upsert:
        s.assign(op.key, op.value);
        return true;
      case OpKind::Erase:
        if (!result_matches_bool(op, present)) return false;
        if (present) s.erase_at(at);
        return true;
      case OpKind::Find:
        return result_matches_value(op, present, present ? s.at(at).second : 0);
      default:
        return false;
    }
  }
};

}  // namespace warpcheck
