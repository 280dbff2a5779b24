// Stadium hashing's three kernels, recorded, for any back-end:
//   stash    every lane runs its own operations (a team of one lane each)
//   clstash  the warp runs its lanes' operations as jobs (collaborative lanes)
//   hybrid   the paper's switch (section III-C2): Stash while the table is
//            mostly empty, clStash once collisions grow; here each warp
//            runs its first `switch_round` operations a lane by Stash, then
//            the rest by clStash (the paper fixes the switch point offline,
//            as a position in the input)
// The log is in two parts: lanes' streams (Stash: a lane's stream is its
// number across the grid) and warps' streams (clStash: a warp's is its
// number); each part is sized for what its kernel records.
#pragma once
#include <cstdint>

#include "structures/core/lane_team.hpp"
#include "structures/stadium/detail/clstash.hpp"
#include "structures/stadium/detail/stash.hpp"

namespace warpcheck::structures {

struct stadium_logs {
  const history_log* lanes = nullptr;  // Stash's records (null: none kept)
  const history_log* warps = nullptr;  // clStash's
};

struct stadium_team_work {
  const core::workload_op* ops;  // the team's: lane-major, per_lane each
  uint32_t per_lane;
  uint32_t switch_round;  // hybrid: the rounds Stash runs
  uint32_t* queue;        // clStash, hybrid: the warp's 32 * stadium_job::kWords scratch words
  uint32_t warp;          // the warp's number: its stream of logs.warps
};

template <class Team>
WC_HD bool run_stadium_team(Team& t, const stadium_hash& s, stadium_kernel kernel, const stadium_team_work& w, stadium_logs logs) {
  if (kernel == stadium_kernel::clstash) return run_clstash_ops(t, s, w.ops, w.per_lane, 0, w.queue, logs.warps, w.warp);
  core::lane_team<Team> me(t);
  const uint32_t rounds = kernel == stadium_kernel::stash ? w.per_lane : w.switch_round;
  const bool ok = run_stash_ops(me, s, w.ops + size_t(t.lane()) * w.per_lane, rounds, logs.lanes);
  if (kernel == stadium_kernel::stash) return ok;
  if (t.any(!ok)) return false;  // the warp meets again here
  return run_clstash_ops(t, s, w.ops, w.per_lane, w.switch_round, w.queue, logs.warps, w.warp);
}

}  // namespace warpcheck::structures
