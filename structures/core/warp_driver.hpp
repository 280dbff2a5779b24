// Warp-cooperative work sharing, recorded: each lane holds a queue of
// operations; the team takes them one at a time, lowest lane first, and all
// lanes run each together through the structure's apply(). The owning lane
// records the operation around it (history_log::begin / end), so the team's
// operations have disjoint intervals in its own stream.
#pragma once
#include <cstdint>

#include "structures/core/recorder/history_log.hpp"
#include "structures/core/workload_op.hpp"

namespace warpcheck::core {

struct team_ops {
  const workload_op* ops;  // this team's: lane-major, per_lane each
  uint32_t per_lane;
};

// A warp-cooperative structure: every lane of the team calls apply() with
// the same operation; lane_state is what each lane keeps across operations
// (a SlabAlloc resident block, say). A structure that stamps its own
// linearization points takes the recorder's clock as a fourth argument.
template <class S, class T>
concept WarpStructure = WarpTeam<T> && requires(const S s, T& t, const workload_op& op, typename S::lane_state& state) {
  { s.apply(t, op, state) } -> std::same_as<op_result>;
};
template <class S, class T>
concept WarpStructureWithPoints =
    WarpTeam<T> && requires(const S s, T& t, const workload_op& op, typename S::lane_state& state, const point_clock& c) {
      { s.apply(t, op, state, c) } -> std::same_as<op_result>;
    };

// A structure whose printed algorithm reads each lane's own pending
// operation while the team serves another's (the slab hash's myKey and
// src_lane): apply_own() gets this lane's pending operation (its last
// once its queue is done) and the source lane; the team serves the
// source's.
template <class S, class T>
concept WarpStructureWithOwnOps =
    WarpTeam<T> && requires(const S s, T& t, const workload_op& own, uint32_t src, typename S::lane_state& state) {
      { s.apply_own(t, own, src, state) } -> std::same_as<op_result>;
    };

// Runs the team's queue. Returns false when an operation gave up or failed
// (the rest of the team's queue is not run; its operation stays pending).
template <class Team, class Structure>
  requires WarpStructure<Structure, Team> || WarpStructureWithPoints<Structure, Team>
WC_HD bool run_team_ops(Team& t, const Structure& s, team_ops work, const history_log* log) {
  typename Structure::lane_state state{};
  uint32_t next = 0;
  const workload_op* mine = work.ops + size_t(t.lane()) * work.per_lane;
  for (;;) {
    while (next < work.per_lane && !mine[next].active) ++next;  // empty slots
    const uint32_t waiting = t.ballot(next < work.per_lane);
    if (!waiting) return true;
    const uint32_t src = static_cast<uint32_t>(lowest_lane(waiting));
    workload_op op{};
    uint32_t slot = history_log::kNoSlot;
    if (t.lane() == src) {
      op = work.ops[size_t(src) * work.per_lane + next];
      if (log) slot = log->begin(t, t.team_id(), op.kind, op.key, op.value, 0, src * work.per_lane + next);
    }
    // The broadcast is the team's first step after the owner's invocation
    // stamp: no lane touches shared memory for this operation before it.
    op.key = t.shfl(op.key, src);
    op.value = t.shfl(op.value, src);
    op.kind = static_cast<OpKind>(t.shfl(static_cast<uint32_t>(op.kind), src));
    t.note_operation(op.kind, op.key);
    op_result r;  // apply() ends with a collective, after its last shared access
    if constexpr (WarpStructureWithPoints<Structure, Team>)
      r = s.apply(t, op, state, log ? point_clock{log->clock, log->ticket, true} : point_clock{});
    else if constexpr (WarpStructureWithOwnOps<Structure, Team>)
      r = s.apply_own(t, mine[next < work.per_lane ? next : work.per_lane - 1], src, state);
    else
      r = s.apply(t, op, state);
    if (r.status != op_status::done) return false;
    if (t.lane() == src) {
      if (log && r.has_point) log->hint_at(t.team_id(), slot, r.point);
      if (log) log->end(t, t.team_id(), slot, r.kind, r.value);
      ++next;
    }
  }
}

}  // namespace warpcheck::core
