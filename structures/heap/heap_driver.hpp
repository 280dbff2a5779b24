// The heap's recorded driver: a team (block) runs its own queue of
// operations one at a time, all lanes on each; lane 0 records it. A push's
// keys are a pure function of its workload slot (heap_keys), so the host,
// the simulator and the GPU see the same keys.
#pragma once
#include <cstdint>

#include "models/base/splitmix.hpp"
#include "structures/core/recorder/history_log.hpp"
#include "structures/core/workload_op.hpp"
#include "structures/heap/generalized_heap.hpp"

namespace warpcheck::structures {

// Keys of pushes: a push in workload slot s carries op.key keys (its count)
// and op.value (its key seed). In random order, key j is a hash of (seed,
// j) in [0, range), shifted left by tag_bits with the unique tag s * k + j
// below (so every key of a workload is distinct), or untagged (tag_bits =
// 0: duplicates, the narrow-key workload). In ascending or descending order
// (the paper's sorted inputs), keys follow the pushes' order in time: a
// team's i-th push comes about when every team's i-th does.
struct heap_keys {
  enum order_kind : uint8_t { random, ascending, descending };
  uint32_t range = 1u << 16;
  uint32_t tag_bits = 15;
  uint32_t k = 4;
  order_kind order = random;
  uint32_t teams = 1, per_team = 1;  // sorted orders: the workload's shape
  WC_HD uint32_t operator()(uint64_t slot, int64_t seed, uint32_t j) const {
    if (order != random) {
      const uint64_t rank = ((slot % per_team) * teams + slot / per_team) * k + j;
      return static_cast<uint32_t>(order == ascending ? rank : 0x7FFFFFFFu - rank);
    }
    const uint32_t v = static_cast<uint32_t>(detail::splitmix64(uint64_t(seed) * detail::kGoldenGamma + j) % range);
    return tag_bits ? (v << tag_bits) | static_cast<uint32_t>(slot * k + j) : v;
  }
};

struct team_heap_ops {
  const core::workload_op* ops;  // this team's queue
  uint32_t count;
  uint64_t first_slot;           // the queue's first workload slot (key tags)
};

// Runs the team's queue. Returns false when an operation gave up or failed
// (the rest is not run; that operation stays pending in the history).
template <class Team>
WC_HD bool run_team_heap_ops(Team& t, const generalized_heap& h, team_heap_ops work, uint32_t* scratch_words,
                             heap_keys keys, const history_log* log) {
  const generalized_heap::scratch sc = h.carve(scratch_words);
  const uint32_t stream = t.team_id();
  for (uint32_t i = 0; i < work.count; ++i) {
    const core::workload_op op = work.ops[i];
    if (!op.active) continue;
    const bool push = op.kind == OpKind::Push;
    const uint32_t n = push ? static_cast<uint32_t>(op.key) : h.k;
    uint32_t slot = history_log::kNoSlot, at = history_log::kNoSlot;
    if (t.lane() == 0 && log) {
      slot = log->begin(t, stream, op.kind, 0, n, 0, i);
      if (push) at = log->reserve_keys(stream, n);
      log->batch_in(stream, slot, at, n);
    }
    at = t.shfl(at, 0);
    if (push)
      for (uint32_t j = t.lane(); j < n && j < h.k; j += t.size()) {
        const uint32_t key = keys(work.first_slot + i, op.value, j);
        heap_detail::put(t, sc.items + j, key);
        if (at != history_log::kNoSlot) *log->key_at(stream, at + j) = key;
      }
    t.sync();  // the keys in place, and no lane ahead of the invocation stamp
    auto hint = [&](Team& team) {
      if (team.lane() == 0 && log) log->hint(team, stream, slot);
    };
    const core::op_result r = heap_apply(t, h, sc, op.kind, n, hint);
    if (r.status != core::op_status::done) return false;
    if (push) {
      if (t.lane() == 0 && log) log->end(t, stream, slot, ResultKind::None, 0);
      continue;
    }
    const uint32_t got = static_cast<uint32_t>(r.value);
    uint32_t out = history_log::kNoSlot;
    if (t.lane() == 0 && log) out = log->reserve_keys(stream, got);
    out = t.shfl(out, 0);
    if (out != history_log::kNoSlot)
      for (uint32_t j = t.lane(); j < got; j += t.size()) *log->key_at(stream, out + j) = heap_detail::get(t, sc.items + j);
    t.sync();
    if (t.lane() == 0 && log) {
      log->batch_out(stream, slot, out, got);
      log->end(t, stream, slot, ResultKind::Keys, got);
    }
  }
  return true;
}

}  // namespace warpcheck::structures
