// How a recorded result is compared with what the model says. A pending
// operation matches anything: its result was never observed.
#pragma once

#include <cstdint>

#include "models/op.hpp"

namespace warpcheck {

inline bool result_matches_bool(const OpData& op, bool model_result) {
  return op.pending || (op.result_kind == ResultKind::Bool && result_bool(op) == model_result);
}

// `present` says whether the model has a value; `value` is it.
inline bool result_matches_value(const OpData& op, bool present, int64_t value) {
  if (op.pending) return true;
  if (op.result_kind == ResultKind::Absent) return !present;
  return op.result_kind == ResultKind::Value && present && op.result == value;
}

}  // namespace warpcheck
