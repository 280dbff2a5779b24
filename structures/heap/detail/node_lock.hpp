// The generalized heap's multi-state node lock (paper, section 3.3.1): one
// word per node, changed by CAS. Lane 0 of the team acts; every lane gets
// the answer. Spins are bounded: past the back-end's bound they give up and
// the caller returns op_status::gave_up (the back-end has the fault, with
// who holds what in the simulator).
//
// Memory orders: the paper's CAS is CUDA's atomicCAS, which orders nothing,
// and its state(x) a plain read (ours relaxed: a spin must re-read). With
// heap_fix::lock_acquire_release a lock's CAS acquires, an unlock's
// releases and state(x) acquires, so a node's keys travel with its lock.
#pragma once
#include <cstdint>

#include "structures/core/spin.hpp"
#include "structures/heap/heap_layout.hpp"

namespace warpcheck::structures::heap_detail {

// Whether a state means a team holds the node (its owner, for reports).
WC_HD inline bool owned(heap_variant v, uint32_t s) {
  if (s == node_state::inuse) return true;
  return v == heap_variant::td ? (s == node_state::target || s == node_state::marked) : s == node_state::inshold;
}

// Records the owner of a node after a transition this team made.
template <class Team>
WC_HD void annotate(Team& t, heap_variant v, const uint32_t* w, uint32_t from, uint32_t to) {
  if (owned(v, to) && (to == node_state::inuse || !owned(v, from))) t.lock_acquired(w);
  else if (!owned(v, to)) t.lock_released(w);
}

// The order of a CAS that may take or hand over a node, and of a read of
// its state.
WC_HD inline core::order cas_order(const generalized_heap& h) {
  return h.fixed(heap_fix::lock_acquire_release) ? core::order::acq_rel : core::order::relaxed;
}
WC_HD inline core::order read_order(const generalized_heap& h) {
  return h.fixed(heap_fix::lock_acquire_release) ? core::order::acquire : core::order::relaxed;
}

// CAS(state(x), from, to), the paper's MS_TRYLOCK and MS_UNLOCK: the state
// it found, for every lane. Callers that release first sync the team, so
// every lane's writes to the node are behind the (release) CAS.
template <class Team>
WC_HD uint32_t ms_cas(Team& t, const generalized_heap& h, uint32_t* w, uint32_t from, uint32_t to, core::order o) {
  uint32_t old = 0;
  if (t.lane() == 0) {
    old = t.cas(w, from, to, o, core::scope::gpu);
    if (old == from) annotate(t, h.variant, w, from, to);
  }
  return t.shfl(old, 0);
}

template <class Team>
WC_HD uint32_t ms_cas(Team& t, const generalized_heap& h, uint32_t* w, uint32_t from, uint32_t to) {
  return ms_cas(t, h, w, from, to, cas_order(h));
}

template <class Team>
WC_HD uint32_t ms_unlock(Team& t, const generalized_heap& h, uint32_t* w, uint32_t from, uint32_t to) {
  t.sync();  // every lane's writes to the node before lane 0 releases it (block note K2, docs/papers/heap.md)
  return ms_cas(t, h, w, from, to, h.mutant == heap_mutant::relaxed_unlock ? core::order::relaxed : cas_order(h));
}

// state(x): one load by lane 0, for every lane.
template <class Team>
WC_HD uint32_t ms_state(Team& t, const generalized_heap& h, const uint32_t* w) {
  return t.shfl(t.lane() == 0 ? t.load(w, read_order(h), core::scope::gpu) : 0u, 0);
}

// MS_LOCK(x, from, to): test, then CAS, until it succeeds (the printed loop
// of CASes, skipping those a relaxed read shows would fail). False at the bound.
template <class Team>
WC_HD bool ms_lock(Team& t, const generalized_heap& h, uint32_t* w, uint32_t from, uint32_t to) {
  uint32_t ok = 1;
  if (t.lane() == 0) {
    core::bounded_spin<Team> spin(t, w);
    for (;;) {
      if (t.load(w, core::order::relaxed, core::scope::gpu) == from && t.cas(w, from, to, cas_order(h), core::scope::gpu) == from) {
        annotate(t, h.variant, w, from, to);
        break;
      }
      if (!spin.again()) {
        ok = 0;
        break;
      }
    }
  }
  return t.shfl(ok, 0) != 0;
}

// Lane 0 repeats `attempt()` (a CAS on w, lane 0's code) while
// `busy(answer)`; every lane gets the last answer. False at the bound.
template <class Team, class Attempt, class Busy>
WC_HD bool repeat_while(Team& t, const uint32_t* w, Attempt attempt, Busy busy, uint32_t& answer) {
  uint32_t ok = 1, a = 0;
  if (t.lane() == 0) {
    core::bounded_spin<Team> spin(t, w);
    while (busy(a = attempt()))
      if (!spin.again()) {
        ok = 0;
        break;
      }
  }
  answer = t.shfl(a, 0);
  return t.shfl(ok, 0) != 0;
}

// The paper's `while (busy(s)) s = MS_TRYLOCK(x, from, to)`.
template <class Team, class Busy>
WC_HD bool ms_trylock_while(Team& t, const generalized_heap& h, uint32_t* w, uint32_t from, uint32_t to, Busy busy,
                            uint32_t& answer) {
  auto attempt = [&] {
    const uint32_t a = t.cas(w, from, to, cas_order(h), core::scope::gpu);
    if (a == from) annotate(t, h.variant, w, from, to);
    return a;
  };
  return repeat_while(t, w, attempt, busy, answer);
}

// Locks x from whatever state it is in but INUSE, retrying a CAS that lost
// a race; `taken` is the state it was taken from. False at the bound.
template <class Team>
WC_HD bool ms_lock_unless_inuse(Team& t, const generalized_heap& h, uint32_t* w, uint32_t& taken) {
  auto attempt = [&] {
    const uint32_t seen = t.load(w, core::order::relaxed, core::scope::gpu);
    if (seen == node_state::inuse) return node_state::inuse;
    const uint32_t old = t.cas(w, seen, node_state::inuse, cas_order(h), core::scope::gpu);
    if (old != seen) return node_state::inuse;  // it moved: try again
    annotate(t, h.variant, w, seen, node_state::inuse);
    return seen;
  };
  return repeat_while(t, w, attempt, [](uint32_t s) { return s == node_state::inuse; }, taken);
}

// Spins until state(x) satisfies `done`. False at the bound.
template <class Team, class Done>
WC_HD bool ms_wait(Team& t, const generalized_heap& h, const uint32_t* w, Done done) {
  uint32_t ok = 1;
  if (t.lane() == 0) {
    core::bounded_spin<Team> spin(t, w);
    while (!done(t.load(w, read_order(h), core::scope::gpu)))
      if (!spin.again()) {
        ok = 0;
        break;
      }
  }
  return t.shfl(ok, 0) != 0;
}

}  // namespace warpcheck::structures::heap_detail
