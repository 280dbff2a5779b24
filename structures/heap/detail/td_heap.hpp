// The TD-INS/TD-DEL heap (paper, Fig. 10): inserts and deletes both walk
// down from the root, locking parent before child. Every operation takes
// effect while it holds the root (the proof of section 3.3.3): `hint`
// stamps that point, right after the root is acquired.
//
// Readings of lines the text extraction damaged (each also at its line;
// docs/papers/heap.md audits every line):
//  - insert line 11 `tar = lastelem++` and delete line 8 `tar = lastelem`:
//    with 1-based nodes an insert's target is the next node (++lastelem)
//    and a delete's is the last one, which it removes (lastelem--, as in
//    Fig. 4(c)).
//  - insert line 20 (unlock the parent) runs whether or not line 19 locked
//    the next node (the indentation is lost): inside the `if`, an insert's
//    last parent would stay locked forever; outside, it follows Fig. 8
//    ("locks N_i+1 before it unlocks N_i", the target being locked already).
//
// Findings (each has a named fix, heap_layout.hpp; declared with its run in
// stress/heap/adapter.cpp):
//  F1 (paper): after line 20 releases the target's parent, and before line
//     23 writes the target, a delete can lock that parent, see the target
//     as "no child" (line 22: TARGET is not AVAIL), and leave the parent
//     holding keys larger than the ones the insert then writes below it.
//     The generalized heap property breaks, and later deletes return keys
//     that are not the smallest. Fixed: the parent stays locked until the
//     target is written (heap_fix::hold_target_parent).
//  F2 (paper): a delete that marks the target makes line 21 fail; line 22
//     rebinds `tar` to the root and line 23 puts the keys there, but lines
//     24-25 then release the root (the delete's) instead of the MARKED
//     target, and the delete waits at line 11 forever (a lost wake-up).
//     Fixed: the original target is released (heap_fix::release_marked_target).
//  Insert line 13 locks the target INUSE, never TARGET; delete line 10 tests
//  for MARKED what MS_TRYLOCK returns as TARGET; a delete of the only node
//  waits for itself; a taken partial buffer is not emptied; atomicCAS
//  orders nothing: heap_fix::lock_target_as_target, mark_took_on_target,
//  one_node_delete, empty_taken_buffer, lock_acquire_release.
#pragma once
#include "structures/core/workload_op.hpp"
#include "structures/heap/detail/batch_ops.hpp"
#include "structures/heap/detail/node_lock.hpp"

namespace warpcheck::structures::heap_detail {

// Inserts the n keys in sc.items (n <= k).
template <class Team, class Hint>
WC_HD core::op_result td_insert(Team& t, const generalized_heap& h, const scratch& sc, uint32_t n, Hint hint) {
  using namespace node_state;
  const core::op_result gave_up{core::op_status::gave_up};
  core::op_result over;
  const uint32_t count = begin_insert(t, h, sc, n, hint, over);                 // lines 1-11
  if (!count) return over;
  const uint32_t tar = h.node_of(count);
  uint32_t cur = 1, level = log2_floor(tar), parent = 0;
  // Line 13 prints MS_LOCK(tar, AVAIL, INUSE); nothing else ever sets TARGET,
  // which line 21 and the delete's line 9 expect (heap_fix::lock_target_as_target).
  const uint32_t claimed = h.fixed(heap_fix::lock_target_as_target) ? target : inuse;
  if (tar != 1 && !ms_lock(t, h, h.state(tar), avail, claimed)) return gave_up;  // line 13
  while (cur != tar) {                                                          // line 14
    if (ms_state(t, h, h.state(tar)) == marked) break;                          // line 15
    merge_and_sort(t, sc, h.node(cur), h.k, sc.items, h.k, h.node(cur), h.k, sc.items);  // line 16
    parent = cur;
    cur = tar >> --level;                                                       // line 17
    if (cur != tar && !ms_lock(t, h, h.state(cur), avail, inuse)) return gave_up;  // lines 18-19
    // Line 20. F1: the paper releases the target's parent here too; the
    // fixed variant keeps it until the target is written (below).
    if (cur != tar || !h.fixed(heap_fix::hold_target_parent)) {
      ms_unlock(t, h, h.state(parent), inuse, avail);
      parent = 0;
    }
  }
  const uint32_t tstate = ms_cas(t, h, h.state(tar), target, inuse);            // line 21
  const uint32_t dest = tstate == target ? tar : 1;                             // line 22: `tar = ... : 1`
  copy_keys(t, h.node(dest), sc.items, h.k);                                    // line 23
  if (h.fixed(heap_fix::release_marked_target)) {
    // F2: release the original target whenever the keys went to the root
    // (the marking delete waits for it), then what this insert still holds.
    if (dest != tar) ms_unlock(t, h, h.state(tar), marked, avail);
    if (cur != tar || dest == tar) ms_unlock(t, h, h.state(cur), inuse, avail);
    if (parent) ms_unlock(t, h, h.state(parent), inuse, avail);
    return {};
  }
  // As printed, line 22 rebinds `tar` to the root: lines 24-25 release the
  // root the marking delete holds, and the MARKED target stays marked.
  if (dest != cur) {                                                            // line 24
    const uint32_t seen = ms_state(t, h, h.state(dest));
    ms_unlock(t, h, h.state(dest), seen, avail);                                // line 25
  }
  ms_unlock(t, h, h.state(cur), inuse, avail);                                  // line 26
  if (parent) ms_unlock(t, h, h.state(parent), inuse, avail);                   // (F1 fixed alone: the held parent)
  return {};
}

// Removes the min(k, size) smallest keys into sc.items; the result's value
// is how many.
template <class Team, class Hint>
WC_HD core::op_result td_delete(Team& t, const generalized_heap& h, const scratch& sc, Hint hint) {
  using namespace node_state;
  const core::op_result gave_up{core::op_status::gave_up};
  core::op_result got;
  const uint32_t tar = begin_delete(t, h, sc, hint, got);                       // lines 1-8
  if (!tar) return got;
  const uint32_t tstate = ms_cas(t, h, h.state(tar), target, marked);           // line 9
  // Line 10 prints `tstate == MARKED`, but MS_TRYLOCK returns the state it
  // found: the mark took when it found TARGET (heap_fix::mark_took_on_target).
  // As printed the test never holds and line 13 waits for the target.
  const bool mark_took = tstate == (h.fixed(heap_fix::mark_took_on_target) ? target : marked);
  if (mark_took) {                                                              // line 10
    // Line 11 (the planted bug no_marked_wait goes on without the keys).
    if (h.mutant != heap_mutant::no_marked_wait && !ms_wait(t, h, h.state(tar), [](uint32_t s) { return s == avail; }))
      return gave_up;
  } else {
    if (!ms_lock(t, h, h.state(tar), avail, inuse)) return gave_up;             // line 13
    move_last_into_root(t, h, tar);                                             // lines 14-15
  }
  trade_root_with_partial_buffer(t, h, sc);                                     // line 16
  const bool root_held = keeps_root_for_descent(t, h);
  auto release = [&](uint32_t node) {
    if (node != 1 || root_held) ms_unlock(t, h, h.state(node), inuse, avail);
  };
  uint32_t cur = 1, l = 0;
  for (;;) {                                                                    // line 17
    l = 2 * cur;
    const uint32_t r = l + 1;                                                   // line 18
    if (r >= h.nodes) {  // below the array: no children (cannot happen within capacity)
      release(cur);
      return got;
    }
    uint32_t lstate = inuse, rstate = inuse;                                    // line 19
    auto busy = [](uint32_t s) { return s == inuse; };
    if (!ms_trylock_while(t, h, h.state(l), avail, inuse, busy, lstate)) return gave_up;  // lines 20-21
    if (lstate != avail) {                                                      // line 22: cur has no child
      release(cur);                                                             // line 23
      return got;                                                               // line 24
    }
    if (!ms_trylock_while(t, h, h.state(r), avail, inuse, busy, rstate)) return gave_up;  // lines 25-26
    if (rstate != avail) {                                                      // line 27: only a left child
      merge_nodes(t, h, sc, cur, l);                                            // line 28
      break;                                                                    // line 29
    }
    const child_split split = merge_children(t, h, sc, l, r);                   // lines 30-31
    const uint32_t big = split.big, small = split.small;
    ms_unlock(t, h, h.state(big), inuse, avail);                                // line 32
    l = small;
    if (last_key(t, h, cur) <= first_key(t, h, l)) break;                       // line 33
    merge_nodes(t, h, sc, cur, l);                                              // line 34
    release(cur);                                                               // line 35
    cur = l;                                                                    // line 36
  }
  release(cur);                                                                 // line 37
  ms_unlock(t, h, h.state(l), inuse, avail);                                    // line 38
  return got;
}

}  // namespace warpcheck::structures::heap_detail
