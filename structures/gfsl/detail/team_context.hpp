// What every GFSL step uses: a team's read of one chunk, the cooperative
// decisions taken from it (ballot, then the highest lane: "precedence to
// higher tIds", thesis section 4.2.1), the chunk locks, and allocation.
#pragma once
#include <cstdint>

#include "structures/core/spin.hpp"
#include "structures/core/workload_op.hpp"
#include "structures/gfsl/gfsl_layout.hpp"

namespace warpcheck::structures {
struct gfsl;
}

namespace warpcheck::structures::gfsl_detail {

using namespace gfsl_layout;
inline constexpr uint32_t kNone = 0xFFFFFFFFu;  // no lane

// One team's read of a chunk: each lane's entry, and when the LOCK lane
// read (the time the chunk's zombie test speaks for).
struct chunk_read {
  uint32_t chunk = kNil;
  uint64_t e = kEmptyEntry;
  uint64_t lock_step = 0;  // simulator only: the step of the LOCK lane's load
};

template <class Team>
struct team_context {
  Team& t;
  const gfsl& s;
  core::point_clock clock;
  uint32_t lane, n, dsize, next_lane, lock_lane;
  bool ok = true;  // false once the team gave up (a spin bound, a failed check): the back-end has the fault

  WC_HD team_context(Team& team, const gfsl& structure, core::point_clock c);

  WC_HD bool data_lane() const { return lane < dsize; }
  WC_HD bool is_next() const { return lane == next_lane; }
  WC_HD bool is_lock() const { return lane == lock_lane; }

  // ---- reading ----
  WC_HD bool valid_chunk(uint32_t c);  // fails the run for a pointer outside the pool
  WC_HD chunk_read read(uint32_t c);
  WC_HD uint32_t highest(bool p) {
    const uint32_t b = t.ballot(p);
    return b ? static_cast<uint32_t>(core::highest_lane(b)) : kNone;
  }
  WC_HD uint32_t value_from(const chunk_read& r, uint32_t from) { return t.shfl(value_of(r.e), from); }
  WC_HD uint32_t key_from(const chunk_read& r, uint32_t from) { return t.shfl(key_of(r.e), from); }
  WC_HD uint32_t next_of(const chunk_read& r) { return value_from(r, next_lane); }
  WC_HD uint32_t max_of(const chunk_read& r) { return key_from(r, next_lane); }
  WC_HD uint64_t lock_of(const chunk_read& r) { return t.shfl(r.e, lock_lane); }
  WC_HD bool zombie(const chunk_read& r) { return t.any(is_lock() && owner_of(r.e) == kZombieOwner); }
  // The zombie test of searchLateral's steps (Algorithm 4.4: Contains, and
  // the lookups of Delete and updateDownPtrs); the no_zombie_skip mutant skips it.
  WC_HD bool zombie_in_walk(const chunk_read& r) { return !s.planted(gfsl_mutant::no_zombie_skip) && zombie(r); }
  WC_HD bool locked(const chunk_read& r) { return t.any(is_lock() && owner_of(r.e) != 0); }
  WC_HD uint32_t count_keys(const chunk_read& r) { return t.count(data_lane() && key_of(r.e) != kEmptyKey); }
  WC_HD uint32_t lane_with_key(const chunk_read& r, uint32_t k) { return highest(data_lane() && key_of(r.e) == k); }
  // Algorithm 4.3: the highest lane whose DATA key is <= k, or NEXT when k
  // is above the max; NONE: every key is above k (a backtrack).
  WC_HD uint32_t step_toward(const chunk_read& r, uint32_t k) {
    return highest((data_lane() && key_of(r.e) <= k) || (is_next() && key_of(r.e) < k));
  }
  // Algorithm 4.4's isTidWithEqualKey: the lane holding k, or NEXT when k is above the max.
  WC_HD uint32_t step_lateral(const chunk_read& r, uint32_t k) {
    return highest((data_lane() && key_of(r.e) == k) || (is_next() && key_of(r.e) < k));
  }
  // Not k's enclosing chunk: a zombie, or its max is below k.
  WC_HD bool not_enclosing(const chunk_read& r, uint32_t k) { return zombie(r) || max_of(r) < k; }
  WC_HD void act_on(const chunk_read& r, const char* what) {
    if constexpr (Team::kShadow)
      if (lane == 0) t.act_on(s.entry_at(r.chunk, 0), r.lock_step, what);
  }

  // ---- writing (one lane writes one entry) ----
  WC_HD void write(uint32_t c, uint32_t i, uint64_t e, core::order o = core::order::relaxed) {
    t.store(s.entry_at(c, i), e, o, core::scope::gpu);
  }
  // A __syncwarp where the printed code orders one lane's write after
  // another lane's by lockstep alone (fix sync_lanes_between_writes).
  WC_HD void sync_writes();

  // ---- memory orders the printed code does not state ----
  // Acquire for reads that follow a published pointer, for head loads and
  // the lock CAS (fix acquire_reads); release for unlocks, links, zombie
  // marks and head updates (fix release_writes). As printed: relaxed.
  WC_HD core::order read_order() const;
  WC_HD core::order publish_order() const;

  // ---- locks ----
  WC_HD bool try_lock(const chunk_read& r);  // one CAS when r shows the chunk free; true when this team holds it now
  WC_HD void unlock(uint32_t c);
  WC_HD bool spin(core::bounded_spin<Team>& sp) {
    if (sp.again()) return true;
    ok = false;
    return false;
  }
  WC_HD bool fail(const char* what, const void* at) {
    if (lane == 0) t.fail(what, at);
    ok = false;
    return false;
  }

  // ---- allocation ----
  // A fresh chunk, locked by this team, every entry EMPTY; kNil when the pool is exhausted (the run fails).
  WC_HD uint32_t allocate();
};

}  // namespace warpcheck::structures::gfsl_detail

namespace warpcheck::structures::gfsl_detail {

template <class Team>
WC_HD team_context<Team>::team_context(Team& team, const gfsl& structure, core::point_clock c)
    : t(team), s(structure), clock(c), lane(team.lane()), n(structure.chunk), dsize(structure.chunk - 2),
      next_lane(structure.chunk - 2), lock_lane(structure.chunk - 1) {}

template <class Team>
WC_HD void team_context<Team>::sync_writes() {
  if (s.fixed(gfsl_fix::sync_lanes_between_writes)) t.sync();
}

template <class Team>
WC_HD core::order team_context<Team>::read_order() const {
  return s.fixed(gfsl_fix::acquire_reads) ? core::order::acquire : core::order::relaxed;
}

template <class Team>
WC_HD core::order team_context<Team>::publish_order() const {
  return s.fixed(gfsl_fix::release_writes) ? core::order::release : core::order::relaxed;
}

template <class Team>
WC_HD bool team_context<Team>::valid_chunk(uint32_t c) {
  if (c < s.pool_chunks) return true;
  return fail(c == kNil ? "gfsl: a walk ran past the last chunk of a level" : "gfsl: a chunk pointer outside the pool",
              s.next_free);
}

template <class Team>
WC_HD chunk_read team_context<Team>::read(uint32_t c) {
  chunk_read r;
  r.chunk = c;
  // One coalesced read: lane i takes entry i (in the simulator, the lanes of
  // each 128-byte segment at one step, so writes can fall between segments).
  r.e = t.load_coalesced(lane < n ? s.entry_at(c, lane) : nullptr, read_order(), core::scope::gpu);
  if constexpr (Team::kShadow) r.lock_step = t.shfl(t.last_load_step(), lock_lane);
  return r;
}

template <class Team>
WC_HD bool team_context<Team>::try_lock(const chunk_read& r) {
  bool won = false;
  if (is_lock() && owner_of(r.e) == 0) {
    uint64_t* word = s.entry_at(r.chunk, lock_lane);
    const uint64_t mine = lock_word(version_of(r.e), t.team_id() + 1);
    won = t.cas(word, r.e, mine, read_order(), core::scope::gpu) == r.e;
    if (won) {
      t.lock_acquired(word);
      // The writer's side of the validated-absent fix's sequence lock
      // (finding G4d): the team's writes to the chunk while it holds it
      // must not be seen by a reader whose later load of the LOCK word
      // still returns the free word from before this CAS. An acquire CAS
      // orders nothing before the stores that follow it, so a validating
      // reader could read a shift half done between two equal, free LOCK
      // loads (seed 2544, relaxed memory). A release fence here makes
      // every later store of the team carry the taken lock: a reader that
      // acquires one of them reads the LOCK word as taken, or newer.
      if (s.fixed(gfsl_fix::validated_absent)) t.fence(core::order::release, core::scope::gpu);
    }
  }
  const bool held = t.shfl(won, lock_lane);
  // The other lanes' stores after the LOCK lane's fence (__syncwarp orders
  // memory among the lanes it joins).
  if (held && s.fixed(gfsl_fix::validated_absent)) t.sync();
  return held;
}

template <class Team>
WC_HD void team_context<Team>::unlock(uint32_t c) {
  if (is_lock()) {
    uint64_t* word = s.entry_at(c, lock_lane);
    const uint64_t held = t.load(word, core::order::relaxed, core::scope::gpu);  // ours: nobody else writes it
    // Algorithm 4.12 line 26 unlocks the chunk it marked a zombie at line
    // 22, which writes "unlocked" over the mark: the zombie is live again
    // with the keys it gave away. The fix (zombie_stays_locked): a zombie's
    // mark is its lock, never released (the text unlocks "any non-zombie
    // chunks").
    const bool keep_mark = owner_of(held) == kZombieOwner && s.fixed(gfsl_fix::zombie_stays_locked);
    if (!keep_mark || s.planted(gfsl_mutant::unlock_erases_zombie)) {
      t.lock_released(word);
      // Release: this team's writes to the chunk before any later locker's reads.
      const uint32_t version = version_of(held) + (s.fixed(gfsl_fix::validated_absent) ? 1 : 0);
      t.store(word, lock_word(version, 0), s.planted(gfsl_mutant::unlock_without_release) ? core::order::relaxed : publish_order(),
              core::scope::gpu);
    }
  }
  sync_writes();
}

template <class Team>
WC_HD uint32_t team_context<Team>::allocate() {
  uint32_t c = kNil;
  if (lane == 0) {
    c = t.fetch_add(s.next_free, 1u, core::order::relaxed, core::scope::gpu);
    if (c >= s.pool_chunks) {
      t.fail("gfsl: the chunk pool is exhausted", s.next_free);
      c = kNil;
    } else {
      t.shadow_mark(s.entry_at(c, 0), core::unit_state::allocated);
    }
  }
  c = t.shfl(c, 0u);
  if (c == kNil) {
    ok = false;
    return kNil;
  }
  // Allocated locked (thesis 4.1): the allocator's owner id in place of FRESH.
  if (is_lock()) {
    t.store(s.entry_at(c, lock_lane), lock_word(0, t.team_id() + 1), core::order::relaxed, core::scope::gpu);
    t.lock_acquired(s.entry_at(c, lock_lane));
  }
  sync_writes();
  return c;
}

}  // namespace warpcheck::structures::gfsl_detail
