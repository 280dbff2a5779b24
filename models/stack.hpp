// LIFO stack of int64 values: push(v) returns nothing; pop returns the
// value on top, or null (ResultKind::Absent) when the stack is empty.
#pragma once

#include "models/detail/sequence_model_base.hpp"

namespace warpcheck {

struct StackModel : detail::SequenceModelBase<OpKind::Push, OpKind::Pop, /*kFifo=*/false> {
  static constexpr std::string_view name = "stack";
  static constexpr OpSpec ops[] = {
      {OpKind::Push, kArgKey, Returns::Nothing},
      {OpKind::Pop, 0, Returns::ValueOrAbsent},
  };
};

}  // namespace warpcheck
