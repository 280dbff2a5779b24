// What a lane is asked to do, and what a structure's team-wide apply()
// answers. Shared by every structure and driver.
#pragma once
#include <cstdint>

#include "models/op.hpp"
#include "structures/core/config.hpp"
#include "structures/core/team.hpp"

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
  bool has_point = false;  // the structure stamped where the operation took effect
  uint64_t point = 0;      // that stamp, on the recorder's clock
};

// The recorder's clock, for structures that stamp their operations'
// linearization points themselves (the lane that performs the deciding
// access stamps right after it); disabled when nothing is recorded.
struct point_clock {
  clock_kind kind = clock_kind::global_timer;
  uint64_t* ticket = nullptr;
  bool enabled = false;
  template <class Team>
  WC_HD WC_FORCE_INLINE uint64_t now(Team& t) const {
    return enabled ? t.now(kind, ticket) : 0;
  }
  // The time of this lane's last load: exact in the simulator (the step it
  // took its value), the clock just after it elsewhere.
  template <class Team>
  WC_HD WC_FORCE_INLINE uint64_t of_last_load(Team& t) const {
    if (!enabled) return 0;
    if constexpr (Team::kShadow) return t.load_stamp();
    else return t.now(kind, ticket);
  }
};

}  // namespace warpcheck::core
