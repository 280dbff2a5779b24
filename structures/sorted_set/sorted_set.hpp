// A warp-cooperative, lock-based set of sorted arrays: the small structure
// that proves the team-and-memory layer end to end (one source, simulator,
// real threads and GPU).
//
// Bucket b = key mod buckets holds up to 32 keys, sorted, one slot per lane,
// guarded by an owner-recording lock. A warp serves one operation at a time
// with all 32 lanes: one coalesced load of the bucket, a ballot to find the
// key or its rank, and a parallel shift to insert or erase.
//
// Results (set model): insert -> true when the key was added, false when it
// was present; erase -> true when removed, false when absent; contains.
//
// Planted bugs (mutants), one switch each:
//  - unlocked_contains: contains reads the bucket without its lock, so it can
//    see a shift half done (a key moved but not yet written, or the size
//    updated after the keys) and miss a key that is present throughout;
//  - keep_lock_on_miss: an erase of an absent key returns without releasing
//    the bucket's lock, so the next operation on that bucket waits forever.
#pragma once
#include <cstdint>

#include "structures/core/spin.hpp"
#include "structures/core/workload_op.hpp"

namespace warpcheck::structures {

enum class sorted_set_mutant : uint8_t { none, unlocked_contains, keep_lock_on_miss };

struct sorted_set {
  static constexpr uint32_t kSlots = 32;  // one per lane
  uint32_t* locks = nullptr;              // per bucket: 0 free, else owner team + 1
  uint32_t* sizes = nullptr;              // per bucket
  int32_t* keys = nullptr;                // buckets * kSlots, each bucket sorted ascending
  uint32_t buckets = 1;
  sorted_set_mutant mutant = sorted_set_mutant::none;

  struct lane_state {};  // nothing kept between operations

  // Every lane of the team calls with the same operation.
  template <class Team>
  WC_HD core::op_result apply(Team& t, const core::workload_op& op, lane_state&) const {
    const uint32_t b = static_cast<uint32_t>(op.key % buckets);
    const bool take_lock = !(op.kind == OpKind::Contains && mutant == sorted_set_mutant::unlocked_contains);
    if (take_lock) {
      bool locked = true;
      if (t.lane() == 0) locked = core::lock_owned(t, &locks[b]);
      if (!t.shfl(locked, 0)) return {core::op_status::gave_up};
    }
    // Under the lock the bucket's words are accessed plainly (weak): the
    // lock's acquire and release order them. The unlocked mutant's reads
    // are then data races, which the real-threads mode reports.
    int32_t* slots = keys + size_t(b) * kSlots;
    const uint32_t lane = t.lane();
    const uint32_t n = t.shfl(lane == 0 ? t.load(&sizes[b], core::order::weak, core::scope::gpu) : 0u, 0);
    const bool mine = lane < n;
    const int32_t k = mine ? t.load(&slots[lane], core::order::weak, core::scope::gpu) : 0;
    const uint32_t found = t.ballot(mine && k == op.key);

    bool result = false;
    bool release = take_lock;
    switch (op.kind) {
      case OpKind::Contains:
        result = found != 0;
        break;
      case OpKind::Insert:
        if (found) break;
        if (n == kSlots) {  // cannot happen in a valid configuration (keys < 32 * buckets)
          if (lane == 0) t.fail("sorted_set: bucket full", &sizes[b]);
          return {core::op_status::failed};
        } else {
          const uint32_t rank = static_cast<uint32_t>(core::popcount(t.ballot(mine && k < op.key)));
          if (mine && lane >= rank) t.store(&slots[lane + 1], k, core::order::weak, core::scope::gpu);
          if (lane == rank) t.store(&slots[rank], static_cast<int32_t>(op.key), core::order::weak, core::scope::gpu);
          t.sync();  // every key in place before the size says so
          if (lane == 0) t.store(&sizes[b], n + 1, core::order::weak, core::scope::gpu);
          result = true;
        }
        break;
      case OpKind::Erase:
        if (!found) {
          if (mutant == sorted_set_mutant::keep_lock_on_miss) release = false;
          break;
        } else {
          const uint32_t at = static_cast<uint32_t>(core::lowest_lane(found));
          if (mine && lane > at) t.store(&slots[lane - 1], k, core::order::weak, core::scope::gpu);
          t.sync();
          if (lane == 0) t.store(&sizes[b], n - 1, core::order::weak, core::scope::gpu);
          result = true;
        }
        break;
      default:
        if (lane == 0) t.fail("sorted_set: unsupported operation", nullptr);
        return {core::op_status::failed};
    }
    if (release && lane == 0) core::unlock_owned(t, &locks[b]);
    t.sync();  // the operation's last shared access is behind every lane
    return {core::op_status::done, ResultKind::Bool, result ? 1 : 0};
  }
};

}  // namespace warpcheck::structures
