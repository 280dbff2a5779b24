// What a lane is asked to do, and what a structure's team-wide apply()
// answers. Shared by every structure and driver.
#pragma once
#include <cstdint>

#include "models/op.hpp"
#include "structures/core/config.hpp"

namespace warpcheck::core {

struct workload_op {
  int64_t key = 0;
  int64_t value = 0;
  OpKind kind = OpKind::Contains;
  bool active = true;  // false: an empty slot (a shrunk workload keeps its shape)
};

enum class op_status : uint8_t {
  done,
  gave_up,  // a bounded spin hit its bound (the back-end has the fault)
  failed,   // the structure could not serve it (full): the back-end has the fault
};

struct op_result {
  op_status status = op_status::done;
  ResultKind kind = ResultKind::None;
  int64_t value = 0;
};

}  // namespace warpcheck::core
