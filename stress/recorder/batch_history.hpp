// A batch recording (structures/core/recorder/batch_log.hpp) joined with
// its launch's inputs, into host log records: the same HostLog every other
// recording becomes, so history_from_log (and the history file) takes it
// as it takes the per-operation records.
#pragma once
#include <cstdint>
#include <functional>

#include "structures/core/recorder/batch_log.hpp"
#include "structures/core/recorder/host_log.hpp"
#include "structures/core/workload_op.hpp"

namespace warpcheck {

// One launch of core::run_team_bulk with K operations a lane: operation i
// ran in team i / (32 K) as lane i % 32. stamps: 2 a team; results: one
// an operation (count).
struct BatchLaunch {
  uint32_t per_lane = 1;
  uint64_t count = 0;
  const uint64_t* stamps = nullptr;
  const uint64_t* results = nullptr;
};

// Appends the launch's operations to `log`'s streams (stream = team), in
// input order within a team: call and ret are the team's batch stamps; an
// operation not done, or in a batch with no ret, is pending; a batch with
// no call never began and adds nothing. A stream that is full counts the
// rest as lost (the history is then incomplete). `input(i)` is operation
// i's arguments. Returns the operations appended.
uint64_t append_batch_launch(HostLog& log, const BatchLaunch& launch,
                             const std::function<core::workload_op(uint64_t)>& input);

}  // namespace warpcheck
