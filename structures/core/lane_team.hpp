// A lane of any team acting as a team of its own: what a structure that
// gives every thread its own operation (a thread-per-key hash table) runs on.
// It is lane 0 of a team of one, numbered across the grid (the parent
// team's id times its size, plus the lane), so its operations are recorded
// in a stream of their own. Collectives are over itself: no lane waits for
// another, and lanes of one warp may diverge freely (on the GPU, the
// independent thread scheduling of sm_70 and later). Memory, spins,
// annotations and the clock are the parent's.
#pragma once
#include <cstdint>

#include "structures/core/team.hpp"

namespace warpcheck::core {

template <class Parent>
class lane_team {
 public:
  static constexpr bool kShadow = Parent::kShadow;

  WC_HD explicit lane_team(Parent& p) : p_(p) {}

  WC_HD uint32_t lane() const { return 0; }
  WC_HD uint32_t size() const { return 1; }
  WC_HD uint32_t team_id() const { return p_.team_id() * p_.size() + p_.lane(); }
  WC_HD Parent& parent() const { return p_; }

  // ---- collectives over one lane ----
  WC_HD uint32_t ballot(bool pred) { return pred ? 1u : 0u; }
  WC_HD bool any(bool pred) { return pred; }
  WC_HD bool all(bool pred) { return pred; }
  WC_HD uint32_t count(bool pred) { return pred ? 1u : 0u; }
  WC_HD void sync() {}
  template <class V>
  WC_HD V shfl(V v, uint32_t) {
    return v;
  }

  // ---- shared words: the parent's ----
  template <class W>
  WC_HD W load(const W* p, order o, scope s) {
    return p_.load(p, o, s);
  }
  template <class W>
  WC_HD void store(W* p, W v, order o, scope s) {
    p_.store(p, v, o, s);
  }
  template <class W>
  WC_HD W cas(W* p, W expected, W desired, order o, scope s) {
    return p_.cas(p, expected, desired, o, s);
  }
  template <class W>
  WC_HD W exchange(W* p, W v, order o, scope s) {
    return p_.exchange(p, v, o, s);
  }
  template <class W>
  WC_HD W fetch_add(W* p, W v, order o, scope s) {
    return p_.fetch_add(p, v, o, s);
  }
  template <class W>
  WC_HD W fetch_and(W* p, W v, order o, scope s) {
    return p_.fetch_and(p, v, o, s);
  }
  template <class W>
  WC_HD W fetch_or(W* p, W v, order o, scope s) {
    return p_.fetch_or(p, v, o, s);
  }
  template <class W>
  WC_HD W fetch_min(W* p, W v, order o, scope s) {
    return p_.fetch_min(p, v, o, s);
  }
  WC_HD void fence(order o, scope s) { p_.fence(o, s); }
  // One lane's coalesced load is a plain load of its word.
  template <class W>
  WC_HD W load_coalesced(const W* p, order o, scope s) {
    return p ? p_.load(p, o, s) : W{};
  }
  WC_HD uint64_t last_load_step() const { return p_.last_load_step(); }
  WC_HD uint64_t load_stamp() const
    requires requires(const Parent& q) { q.load_stamp(); }
  {
    return p_.load_stamp();
  }

  // ---- spinning, annotations, the clock: the parent's ----
  WC_HD bool spin(const void* waiting_on, uint64_t iteration) { return p_.spin(waiting_on, iteration); }
  WC_HD void lock_acquired(const void* lock) { p_.lock_acquired(lock); }
  WC_HD void lock_released(const void* lock) { p_.lock_released(lock); }
  WC_HD void shadow_mark(const void* unit, unit_state s) { p_.shadow_mark(unit, s); }
  WC_HD void fail(const char* what, const void* at) { p_.fail(what, at); }
  WC_HD void retire(const void* unit) { p_.retire(unit); }
  WC_HD void act_on(const void* unit, uint64_t read_step, const char* what) { p_.act_on(unit, read_step, what); }
  WC_HD void note_operation(OpKind kind, int64_t key) { p_.note_operation(kind, key); }
  WC_HD uint64_t now(clock_kind clock, uint64_t* ticket) const { return p_.now(clock, ticket); }
  // The recorder's operations (guided simulator runs), where the parent takes them.
  WC_HD void operation_begins(const void* log, uint32_t stream, uint32_t slot, uint32_t job, OpKind kind)
    requires RecordsOperations<Parent>
  {
    p_.operation_begins(log, stream, slot, job, kind);
  }
  WC_HD void operation_ends(const void* log, uint32_t stream, uint32_t slot, ResultKind kind, int64_t result)
    requires RecordsOperations<Parent>
  {
    p_.operation_ends(log, stream, slot, kind, result);
  }

 private:
  Parent& p_;
};

}  // namespace warpcheck::core
