// The BU-INS/TD-DEL heap (paper, Fig. 12): inserts place their batch at the
// next node and bubble it up; deletes walk down from the root. An insert
// releases its node between steps (INUSE -> INSHOLD, "parked") so that it
// never holds a child while waiting for a parent a delete holds; a delete
// that meets a parked node takes it anyway and leaves it DELMOD, telling
// the insert its batch was modified. The proof (section 3.3.5) puts a
// delete's point inside its hold of the root and an insert's inside its
// hold of the last node it locks: `hint` stamps after every acquisition,
// so the last stamp is inside the last hold.
//
// Readings of lines the text extraction damaged (each also at its line):
//  - insert line 11 `cur = lastelem++` and delete line 8: as in TD (the
//    next node; the last node, removed).
//  - insert lines 24-35 are partly lost. Kept: line 24 `if (cstate ==
//    DELMOD)`, line 27 `MS_UNLOCK(par, INUSE, AVAIL)`, line 30 `if
//    (B[cur][0] >= B[par][K-1])`, line 33's MergeAndSort and line 36's
//    final unlock. Filled in from the prose ("DELMOD: ... the insert
//    operation can move to the parent batch"; property satisfied: stop):
//    on DELMOD the insert clears the mark (DELMOD -> AVAIL) and continues
//    from the parent, which it holds; when the property holds it releases
//    the parent and stops; after a merge it releases its node and moves up.
//  - delete line 18 is printed as a comment (`// lstate = ...`); it is the
//    loop's body, like line 20.
// Findings (kept as printed; each has a named fix, so it can be reproduced
// with the others fixed: tests/structures/heap/test_heap.cpp, bench/RESULTS.md,
// "Heap", issues 6 and 30):
//  B1 delete line 9 locks the last node only from AVAIL, though it may be a
//     parked insert's node (INSHOLD) whose insert waits (line 19) for the
//     root this delete holds: a wait-for cycle (heap_fix::take_parked_last
//     takes the batch anyway; its insert finds the node AVAIL and stops).
//  B2 insert line 21 ends the insert when the parent is neither AVAIL nor
//     INUSE/INSHOLD, i.e. DELMOD, which the prose takes to mean "deleted";
//     it is another insert's modified batch, and this insert's batch is left
//     parked below it for good (heap_fix::wait_on_delmod_parent waits on it).
//  B3 `MS_TRYLOCK(l, state(l), INUSE)` is CAS(state(l), <a fresh read>,
//     INUSE): when the state moves between the read and the CAS, the CAS
//     fails, returns the new state, and the loop (`while (lstate == INUSE)`)
//     ends as if the node were locked. Deletes alone hit it (an H100 did, in
//     the paper's own insert-all-then-delete-all benchmark)
//     (heap_fix::checked_trylock retries a lost CAS).
//  B4 with B1-B3 patched the heap still breaks: the marks name no owner, so
//     an insert that finds its node changed cannot tell a batch taken whole
//     (into the root) from one a delete moved up first, and stops while its
//     keys sit below a broken edge. Hunt et al. tag items with the pid for
//     this; the paper dropped it ("does not need to store the pid").
//  P1 the proof's points (an insert's: inside the hold of the last node it
//     locks; Lemma 3.3) do not explain linearizable histories: a delete can
//     return a parked batch's keys before that insert's last hold.
//  Delete line 13 gives the root back INUSE (heap_fix::descent_restores_avail);
//  as in TD, a delete of the only node waits for itself, a taken partial
//  buffer is not emptied, and atomicCAS orders nothing (one_node_delete,
//  empty_taken_buffer, lock_acquire_release).
// The corrected variant (bu-fixed) keeps this code with every fix, the phase
// gate (phase_gate.hpp) never letting inserts and deletes overlap.
#pragma once
#include "structures/core/workload_op.hpp"
#include "structures/heap/detail/batch_ops.hpp"
#include "structures/heap/detail/node_lock.hpp"

namespace warpcheck::structures::heap_detail {

// `while (s == INUSE) s = MS_TRYLOCK(x, state(x), INUSE)`: a read, then a
// CAS from what was read. As printed (B3) the loop looks at what the CAS
// found, not at whether it succeeded: when the state moves between the read
// and the CAS, the CAS fails, and the delete goes on as if it held the node.
// With heap_fix::checked_trylock it retries until its own CAS succeeds.
template <class Team>
WC_HD bool ms_trylock_as_read_while_inuse(Team& t, const generalized_heap& h, uint32_t* w, uint32_t& answer) {
  if (h.fixed(heap_fix::checked_trylock)) return ms_lock_unless_inuse(t, h, w, answer);
  auto attempt = [&] {
    const uint32_t seen = t.load(w, core::order::relaxed, core::scope::gpu);
    const uint32_t old = t.cas(w, seen, node_state::inuse, cas_order(h), core::scope::gpu);
    if (old == seen) annotate(t, h.variant, w, seen, node_state::inuse);
    return old;
  };
  return repeat_while(t, w, attempt, [](uint32_t s) { return s == node_state::inuse; }, answer);
}

// Inserts the n keys in sc.items (n <= k).
template <class Team, class Hint>
WC_HD core::op_result bu_insert(Team& t, const generalized_heap& h, const scratch& sc, uint32_t n, Hint hint) {
  using namespace node_state;
  const core::op_result gave_up{core::op_status::gave_up};
  core::op_result over;
  const uint32_t count = begin_insert(t, h, sc, n, hint, over);                 // lines 1-11
  if (!count) return over;
  uint32_t cur = h.node_of(count), par = cur >> 1;
  if (cur != 1) {                                                               // line 12
    if (!ms_lock(t, h, h.state(cur), avail, inuse)) return gave_up;             // line 13
    hint(t);
    ms_unlock(t, h, h.state(1), inuse, avail);                                  // line 14
  }
  copy_keys(t, h.node(cur), sc.items, h.k);                                     // line 15
  uint32_t par_restore = avail;  // the state the parent gets back if left as it is
  while (cur != 1) {                                                            // line 16
    ms_unlock(t, h, h.state(cur), inuse, inshold);                              // line 17: park
    uint32_t pstate = inuse, cstate = inuse;                                    // line 18
    // Lines 19-20: wait while the parent is INUSE or INSHOLD (another
    // insert's parked batch): a batch merges only into a settled parent.
    // B2 fixed: DELMOD is another insert's batch too (a delete modified
    // it; its insert will clear the mark), so wait on it as well.
    auto parent_busy = [&](uint32_t s) {
      return s == inuse || (s == inshold && h.mutant != heap_mutant::ignore_parked_parent) ||
             (s == delmod && h.fixed(heap_fix::wait_on_delmod_parent));
    };
    if (!ms_trylock_while(t, h, h.state(par), avail, inuse, parent_busy, pstate)) return gave_up;  // lines 19-20
    par_restore = avail;
    if (pstate == inshold && h.mutant == heap_mutant::ignore_parked_parent) {
      // The planted bug: take the parked parent as if it were settled.
      if (ms_cas(t, h, h.state(par), inshold, inuse) != inshold) continue;
      pstate = avail;
      par_restore = inshold;
    }
    if (pstate != avail) return {};                                             // line 21 (B2: ends on DELMOD, parked)
    hint(t);
    auto mine_busy = [](uint32_t s) { return s == inuse; };
    if (!ms_trylock_while(t, h, h.state(cur), inshold, inuse, mine_busy, cstate)) return gave_up;  // lines 22-23
    if (cstate == avail && h.fixed(heap_fix::take_parked_last)) {
      // B1 fixed: a delete took this node as its last and moved the batch
      // into the root; nothing of it is left to bubble up.
      ms_unlock(t, h, h.state(par), inuse, par_restore);
      return {};
    }
    if (cstate == delmod) {                                                     // line 24
      ms_cas(t, h, h.state(cur), delmod, avail);                                // (reading: clear the mark)
      cur = par;                                                                // (reading: on from the parent,
      par = cur >> 1;                                                           //  which this insert holds)
      continue;
    }
    hint(t);
    if (first_key(t, h, cur) >= last_key(t, h, par)) {                          // line 30
      ms_unlock(t, h, h.state(par), inuse, par_restore);                        // (reading: release the parent, stop)
      break;
    }
    merge_nodes(t, h, sc, par, cur);                                            // line 33
    ms_unlock(t, h, h.state(cur), inuse, avail);                                // (reading: release the node,
    cur = par;                                                                  //  move up)
    par = cur >> 1;
  }
  ms_unlock(t, h, h.state(cur), inuse, avail);                                  // line 36
  return {};
}

// Removes the min(k, size) smallest keys into sc.items; the result's value
// is how many.
template <class Team, class Hint>
WC_HD core::op_result bu_delete(Team& t, const generalized_heap& h, const scratch& sc, Hint hint) {
  using namespace node_state;
  const core::op_result gave_up{core::op_status::gave_up};
  core::op_result got;
  const uint32_t tar = begin_delete(t, h, sc, hint, got);                       // lines 1-8
  if (!tar) return got;
  if (h.fixed(heap_fix::take_parked_last)) {
    // B1 fixed: take the last node even when an insert parked its batch
    // there (that insert may be waiting for the root this delete holds).
    // Its insert, finding the node AVAIL, takes its batch to be in the
    // root: true when the batch was taken whole, not when a delete had
    // moved it up first (B4: the marks name no owner).
    uint32_t taken = avail;
    if (!ms_lock_unless_inuse(t, h, h.state(tar), taken)) return gave_up;
  } else if (!ms_lock(t, h, h.state(tar), avail, inuse)) {                      // line 9 (B1: AVAIL only)
    return gave_up;
  }
  move_last_into_root(t, h, tar);                                               // lines 10-11
  trade_root_with_partial_buffer(t, h, sc);                                     // line 12
  const bool root_held = keeps_root_for_descent(t, h);
  // Line 13 prints `cstate = INUSE`: the root, taken from AVAIL, would be
  // given back INUSE (lines 27, 31) and stay locked for good
  // (heap_fix::descent_restores_avail gives it back AVAIL).
  uint32_t cur = 1, cstate = h.fixed(heap_fix::descent_restores_avail) ? avail : inuse;  // line 13
  auto release = [&](uint32_t node, uint32_t restore) {
    if (node != 1 || root_held) ms_unlock(t, h, h.state(node), inuse, restore);
  };
  for (;;) {                                                                    // line 14
    const uint32_t l = 2 * cur, r = l + 1;                                      // line 15
    if (r >= h.nodes) {  // below the array: no children (cannot happen within capacity)
      release(cur, cstate);
      return got;
    }
    uint32_t lstate = inuse, rstate = inuse;                                    // line 16
    if (!ms_trylock_as_read_while_inuse(t, h, h.state(l), lstate)) return gave_up;  // lines 17-18
    if (!ms_trylock_as_read_while_inuse(t, h, h.state(r), rstate)) return gave_up;  // lines 19-20
    lstate = lstate == inshold ? delmod : lstate;                               // line 21
    rstate = rstate == inshold ? delmod : rstate;                               // line 22
    const child_split split = merge_children(t, h, sc, l, r);                   // lines 23-24
    const uint32_t big = split.big, small = split.small;
    const uint32_t big_state = split.left_big ? lstate : rstate, small_state = split.left_big ? rstate : lstate;
    ms_unlock(t, h, h.state(big), inuse, big_state);                            // line 25
    if (last_key(t, h, cur) <= first_key(t, h, small)) {                        // line 26
      release(cur, cstate);                                                     // line 27
      ms_unlock(t, h, h.state(small), inuse, small_state);                      // line 28
      return got;                                                               // line 29
    }
    merge_nodes(t, h, sc, cur, small);                                          // line 30
    release(cur, cstate);                                                       // line 31
    cur = small;                                                                // line 32
    cstate = small_state;
  }
}

}  // namespace warpcheck::structures::heap_detail
