// The generalized concurrent heap (Chen et al.), both variants, on the
// team-and-memory layer: a team is a thread block on the GPU (every lane
// cooperates on one operation's sorting and merging) and a small block in
// the simulator. Layout and variants: heap_layout.hpp; the operations:
// detail/td_heap.hpp and detail/bu_heap.hpp, with the readings of damaged
// pseudocode lines and the findings at their lines.
//
// Operations (priority-queue model, batched):
//   push(keys)  inserts 1 to k keys (each below 0xFFFFFFFF), returns nothing;
//   pop         removes and returns the min(k, size) smallest keys, sorted
//               (the root's k keys, or the partial buffer when no node is
//               in use).
#pragma once
#include "structures/heap/detail/bu_heap.hpp"
#include "structures/heap/detail/phase_gate.hpp"
#include "structures/heap/detail/td_heap.hpp"

namespace warpcheck::structures {

// One operation, every lane calling. A push's n keys are in sc.items
// (unsorted); a pop leaves its keys in sc.items and their count in the
// result's value. `hint(t)` stamps the proof's linearization point (lane 0
// calls it; it may do nothing).
template <class Team, class Hint>
WC_HD core::op_result heap_apply(Team& t, const generalized_heap& h, const generalized_heap::scratch& sc, OpKind kind,
                                 uint32_t n, Hint hint) {
  const bool td = h.variant == heap_variant::td;
  const bool push = kind == OpKind::Push;
  if (!push && kind != OpKind::Pop) {
    if (t.lane() == 0) t.fail("heap: unsupported operation (push or pop)", nullptr);
    return {core::op_status::failed};
  }
  if (push && (n == 0 || n > h.k)) {
    if (t.lane() == 0) t.fail("heap: a push takes 1 to k keys", nullptr);
    return {core::op_status::failed};
  }
  if (push) {  // keys must stay below the empty slot's word
    bool sentinel = false;
    for (uint32_t j = t.lane(); j < n; j += t.size()) sentinel |= heap_detail::get(t, sc.items + j) == generalized_heap::kEmptyKey;
    if (t.any(sentinel)) {
      if (t.lane() == 0) t.fail("heap: a pushed key equals 0xFFFFFFFF, the empty-slot sentinel", nullptr);
      return {core::op_status::failed};
    }
  }
  if (td) return push ? heap_detail::td_insert(t, h, sc, n, hint) : heap_detail::td_delete(t, h, sc, hint);
  const bool gated = h.fixed(heap_fix::phase_gate);
  if (gated && !heap_detail::gate_enter(t, h.gate, push)) return {core::op_status::gave_up};
  const core::op_result r = push ? heap_detail::bu_insert(t, h, sc, n, hint) : heap_detail::bu_delete(t, h, sc, hint);
  if (gated && r.status == core::op_status::done) heap_detail::gate_leave(t, h.gate, push);
  return r;
}

}  // namespace warpcheck::structures
