// The corrected BU heap's gate (heap_fix::phase_gate): inserts and deletes
// never overlap, while inserts run with inserts and deletes with deletes.
//
// Why: the framework showed the paper's INS/DEL cooperation (parking with
// INSHOLD, DELMOD marks) wrong four ways (B1-B4, bu_heap.hpp), and a first
// correction with Hunt et al.'s owner tags, generalized to batches, was
// refuted too (bench/RESULTS.md, "Heap", issue 6). Without a delete in flight the paper's
// bottom-up insert is Hunt's insert for batches: an insert waits while its
// parent is INUSE or INSHOLD, so an insert's batch never merges into a
// parent whose own upper edge is still unsettled, and nothing else moves
// parked batches. Without an insert in flight, deletes are the top-down
// hand-over-hand of TD-DEL. The gate keeps both and gives up their overlap.
//
// One word: active inserts (bits 0-11), active deletes (12-23), deletes
// waiting (24-31). A waiting delete keeps new inserts out, so inserts
// cannot starve deletes; every wait is bounded.
#pragma once
#include "structures/core/spin.hpp"

namespace warpcheck::structures::heap_detail {

inline constexpr uint32_t kGateInsert = 1u, kGateDelete = 1u << 12, kGateWaiting = 1u << 24;
WC_HD inline uint32_t gate_inserts(uint32_t w) { return w & 0xFFFu; }
WC_HD inline uint32_t gate_deletes(uint32_t w) { return (w >> 12) & 0xFFFu; }
WC_HD inline uint32_t gate_waiting(uint32_t w) { return w >> 24; }

// Enters the gate as an insert or a delete (lane 0 acts). False at the bound.
template <class Team>
WC_HD bool gate_enter(Team& t, uint32_t* gate, bool insert) {
  uint32_t ok = 1;
  if (t.lane() == 0) {
    if (!insert) t.fetch_add(gate, kGateWaiting, core::order::relaxed, core::scope::gpu);
    core::bounded_spin<Team> spin(t, gate);
    for (;;) {
      const uint32_t w = t.load(gate, core::order::relaxed, core::scope::gpu);
      const bool open = insert ? gate_deletes(w) == 0 && gate_waiting(w) == 0 : gate_inserts(w) == 0;
      const uint32_t next = insert ? w + kGateInsert : w - kGateWaiting + kGateDelete;
      if (open && t.cas(gate, w, next, core::order::acquire, core::scope::gpu) == w) break;
      if (!spin.again()) {
        ok = 0;
        break;
      }
    }
  }
  return t.shfl(ok, 0) != 0;
}

template <class Team>
WC_HD void gate_leave(Team& t, uint32_t* gate, bool insert) {
  t.sync();  // every lane's last access before the release
  if (t.lane() == 0) t.fetch_add(gate, insert ? 0u - kGateInsert : 0u - kGateDelete, core::order::release, core::scope::gpu);
  t.sync();
}

}  // namespace warpcheck::structures::heap_detail
