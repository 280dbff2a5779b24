// Stash (paper, section III-B): a thread per operation. The lane is its own
// team (core::lane_team): it runs its operations one after the other, each
// attempt after attempt until it is done, and records each in its own
// stream of the history log.
#pragma once
#include <cstdint>

#include "structures/core/recorder/history_log.hpp"
#include "structures/stadium/stadium_hash.hpp"

namespace warpcheck::structures {

// `t` is a team of one lane; `ops` are its `count` operations.
template <class Team>
WC_HD bool run_stash_ops(Team& t, const stadium_hash& s, const core::workload_op* ops, uint32_t count, const history_log* log) {
  for (uint32_t i = 0; i < count; ++i) {
    const core::workload_op& op = ops[i];
    if (!op.active) continue;
    t.note_operation(op.kind, op.key);
    const uint32_t slot = log ? log->begin(t, t.team_id(), op.kind, op.key, op.value, 0, i) : history_log::kNoSlot;
    stadium_job j = s.start(op, i);
    stadium_attempt a;
    do a = s.attempt(t, op, j);
    while (a.status == stadium_attempt::again);
    if (a.status != stadium_attempt::done) return false;
    if (log) log->end(t, t.team_id(), slot, a.kind, a.value);
  }
  return true;
}

}  // namespace warpcheck::structures
