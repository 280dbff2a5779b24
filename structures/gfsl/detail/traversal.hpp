// Traversals: searchDown (Algorithm 4.2) to the bottom level, the lateral
// walk to k's enclosing chunk (Algorithm 4.4), and searchSlow (Algorithm
// 4.6), which keeps the path (lane i holds level i's chunk) and unlinks the
// zombies it passes.
#pragma once
#include "structures/gfsl/detail/team_context.hpp"

namespace warpcheck::structures::gfsl_detail {

// The highest level in use (thesis 4.2.1's getHeight): lane i reads level
// i's chunk counter; 0 when only the bottom level has keys.
template <class Team>
WC_HD uint32_t height(team_context<Team>& c) {
  const bool used = c.lane > 0 && c.lane < c.s.levels() &&
                    c.t.load(c.s.level_chunks + c.lane, core::order::relaxed, core::scope::gpu) != 0;
  const uint32_t h = c.highest(used);
  return h == kNone ? 0 : h;
}

template <class Team>
WC_HD uint32_t head_of(team_context<Team>& c, uint32_t level) {
  uint32_t h = 0;
  if (c.lane == 0) h = c.t.load(c.s.heads + level, c.read_order(), core::scope::gpu);
  return c.t.shfl(h, 0u);
}

// What a walk to k's enclosing chunk found there.
struct lateral_result {
  chunk_read at;                // the enclosing chunk's read
  uint32_t lane = kNone;        // the lane holding k, or kNone
  uint64_t point = 0;           // when the deciding load happened (core::point_clock)
  WC_HD bool found() const { return lane != kNone; }
};

// How a walk settles an absent answer (with the validated-absent fix; the
// printed pseudocode takes every read as it is).
// A validating reader can starve: on a hot chunk every try may meet a
// writer, and a team that gives up at its spin bound keeps the locks it
// holds, so one starved Delete (its bottom chunk locked while it validates
// the levels above) stops every team behind it. That is our reading of the
// first GPU runs of this fix (finding G4c): at [5,5,90] on 10K keys, 26,000
// warps hit the spin bound. After gfsl::validation_tries failed tries the
// walk settles the answer under the chunk's lock instead, in bounded time.
// Not sooner: readers that lock early convoy on the upper levels' few
// chunks (on an H100, [10,10,80] on 1M keys: 24 M ops/s at 4 tries, 534
// at 1024, 557 never locking; bench/RESULTS.md, "GFSL", issue 13).
// Taking a lock is waiting for its holder, so only a walk that may lock
// the chunk in the lock order (bottom, then upper levels in ascending
// order, left to right) validates; updateDownPtrs' walks, which hold a
// chunk of a higher level, take what they read.
enum class absent_answer : uint8_t {
  validated,  // validated, settled under the lock when writers keep failing it
  as_read,    // taken as read: a miss only leaves a down pointer to the left of its key, which still reaches it
};

// The stamp of a decision: the deciding lane's own load time.
template <class Team>
WC_HD uint64_t stamp_of(team_context<Team>& c, uint32_t deciding_lane) {
  return c.t.shfl(c.clock.of_last_load(c.t), deciding_lane);
}

// The validated-absent fix (finding G4) reads a chunk as a sequence lock:
// the LOCK word first, then the chunk, then the LOCK word again. Every
// mutation of a chunk is made under its lock and bumps its version at
// unlock, so two equal, free LOCK words around the read mean no writer
// touched the chunk in between, whatever the order of the read's own
// transactions. (Comparing with the LOCK word the read itself brought
// back is not enough: the LOCK entry shares a transaction with entries
// 16-29, and a whole lock-shift-unlock can fall between the transactions:
// finding G4b, refuted by the framework, tests/structures/gfsl.)
// The team syncs before reading the chunk and after it. The reader's
// order in relaxed memory is acquire_reads' (an acquire first LOCK load, a
// fence before the second; without it the read may be stale however the
// two compare: G7); the writer's is this fix's: a release fence after
// taking the lock, before writing the chunk (try_lock, finding G4d).
template <class Team>
WC_HD uint64_t lock_before_read(team_context<Team>& c, uint32_t chunk) {
  uint64_t before = 0;
  if (c.is_lock()) before = c.t.load(c.s.entry_at(chunk, c.lock_lane), c.read_order(), core::scope::gpu);
  c.t.sync();
  return before;  // meaningful in the LOCK lane
}

// Is the absent answer from a read of `chunk` made after `before` was read a sound one?
// `point`: the second LOCK load's stamp, when the chunk is known unchanged.
template <class Team>
WC_HD bool absent_holds(team_context<Team>& c, uint32_t chunk, uint64_t before, uint64_t& point) {
  c.t.sync();
  uint64_t again = 0;
  if (c.is_lock()) {
    if (c.s.fixed(gfsl_fix::acquire_reads)) c.t.fence(core::order::acq_rel, core::scope::gpu);
    again = c.t.load(c.s.entry_at(chunk, c.lock_lane), core::order::relaxed, core::scope::gpu);
  }
  point = stamp_of(c, c.lock_lane);
  return c.t.all(!c.is_lock() || (again == before && owner_of(before) == 0));
}

// Lateral steps at one level from `from` to k's enclosing chunk, skipping
// zombies; reports whether k is there (Algorithm 4.4). With `unlink`, the
// zombies passed are unlinked from their predecessor as searchSlow does.
template <class Team>
WC_HD lateral_result walk_to_enclosing(team_context<Team>& c, uint32_t from, uint32_t k, uint32_t level, bool unlink,
                                       absent_answer absent = absent_answer::validated);

template <class Team>
WC_HD uint32_t lock_enclosing(team_context<Team>& c, uint32_t from, uint32_t k);  // locking.hpp

// searchDown (Algorithm 4.2): from the top level to a chunk of `to_level`
// through which k's enclosing chunk there is reachable laterally.
template <class Team>
WC_HD uint32_t search_down(team_context<Team>& c, uint32_t k, uint32_t to_level);

// searchSlow (Algorithm 4.6): the walk of search_down that also records the
// path (lane i: the chunk of level i through which the walk stepped down,
// or the head of a level above the height) and unlinks zombies; returns
// the bottom walk's result.
template <class Team>
WC_HD lateral_result search_slow(team_context<Team>& c, uint32_t k, uint32_t& path);

// ---------------------------------------------------------------------------

// The first non-zombie chunk from `c0` on, following NEXT (findFirstNonZombie).
template <class Team>
WC_HD chunk_read first_non_zombie(team_context<Team>& c, chunk_read r) {
  for (uint32_t hops = 0; c.ok && c.zombie(r); ++hops) {
    const uint32_t next = c.next_of(r);
    if (hops > c.s.pool_chunks || !c.valid_chunk(next)) {
      if (c.ok) c.fail("gfsl: a chain of zombies longer than the pool", c.s.next_free);
      return r;
    }
    r = c.read(next);
  }
  return r;
}

// redirectToRemoveZombie: try-lock the predecessor once; if it still points
// at the zombie, point it past (keeping its max). A lost try-lock is left
// to a later traversal (thesis 4.2.2).
template <class Team>
WC_HD void unlink_zombie(team_context<Team>& c, uint32_t pred, uint32_t zombie, const chunk_read& live) {
  chunk_read p = c.read(pred);
  if (c.zombie(p) || c.locked(p) || !c.try_lock(p)) return;
  p = c.read(pred);
  if (!c.zombie(p) && c.next_of(p) == zombie) {
    c.act_on(live, "linked to");
    if (c.is_next()) c.write(pred, c.next_lane, entry(key_of(p.e), live.chunk), c.publish_order());
    c.sync_writes();
  }
  c.unlock(pred);
}

// k's enclosing chunk from `from` on, read under its lock.
template <class Team>
WC_HD lateral_result settled_under_lock(team_context<Team>& c, uint32_t from, uint32_t k) {
  lateral_result out;
  const uint32_t held = lock_enclosing(c, from, k);
  if (!c.ok) return out;
  out.at = c.read(held);
  out.lane = c.lane_with_key(out.at, k);
  out.point = stamp_of(c, out.found() ? out.lane : c.next_lane);
  c.act_on(out.at, out.found() ? "answered present from" : "answered absent from");
  c.unlock(held);
  return out;
}

template <class Team>
WC_HD lateral_result walk_to_enclosing(team_context<Team>& c, uint32_t from, uint32_t k, uint32_t level, bool unlink,
                                       absent_answer absent) {
  lateral_result out;
  uint32_t cur = from, pred = kNil;
  core::bounded_spin<Team> revalidate(c.t, c.s.entry_at(from, c.lock_lane));
  uint32_t validating = kNil;  // the chunk whose LOCK word `before` holds, read ahead of reading it again
  uint64_t before = 0;
  for (uint32_t hops = 0; c.ok; ++hops) {
    if (hops > c.s.pool_chunks) {
      c.fail("gfsl: a lateral walk longer than the pool: a cycle in a level", c.s.next_free);
      break;
    }
    if (!c.valid_chunk(cur)) break;
    chunk_read r = c.read(cur);
    if (unlink ? c.zombie(r) : c.zombie_in_walk(r)) {
      if (!unlink) {
        cur = c.next_of(r);
        continue;
      }
      const chunk_read live = first_non_zombie(c, r);
      if (!c.ok) break;
      if (pred != kNil) unlink_zombie(c, pred, cur, live);
      else if (c.lane == 0 && head_of_level_is(c, level, cur))
        c.t.cas(c.s.heads + level, cur, live.chunk, c.publish_order(), core::scope::gpu);  // updateHeadArray
      c.sync_writes();
      cur = live.chunk;
      continue;
    }
    const uint32_t step = c.step_lateral(r, k);
    if (step == c.next_lane) {
      pred = cur;
      cur = c.next_of(r);
      continue;
    }
    out.at = r;
    out.lane = step;
    if (step != kNone) {
      out.point = stamp_of(c, step);
      c.act_on(r, "answered present from");
      return out;
    }
    if (!c.s.fixed(gfsl_fix::validated_absent) || absent == absent_answer::as_read) {
      out.point = stamp_of(c, c.next_lane);  // the load of the max that ended the walk
      c.act_on(r, "answered absent from");
      return out;
    }
    if (validating == cur) {  // r was read between two loads of the LOCK word
      if (absent_holds(c, cur, before, out.point)) {
        c.act_on(r, "answered absent from");
        return out;
      }
      if (revalidate.iterations() >= c.s.validation_tries) return settled_under_lock(c, cur, k);
      revalidate.now_on(c.s.entry_at(cur, c.lock_lane));
      if (!c.spin(revalidate)) break;  // a writer held the chunk or changed it: wait
    }
    before = lock_before_read(c, cur);  // and read the chunk again
    validating = cur;
    --hops;
  }
  out.lane = kNone;
  return out;
}

template <class Team>
WC_HD bool head_of_level_is(team_context<Team>& c, uint32_t level, uint32_t chunk) {
  return c.t.load(c.s.heads + level, core::order::relaxed, core::scope::gpu) == chunk;
}

// The down and lateral steps of Algorithms 4.2 and 4.6, to `to_level`.
// Restarts from the top when a backtrack finds no previous chunk (the rare
// case of thesis 4.2.1 "Lock-Freedom"), a bounded number of times.
template <class Team>
WC_HD uint32_t descend(team_context<Team>& c, uint32_t k, uint32_t to_level, uint32_t* path, bool unlink) {
  core::bounded_spin<Team> restarts(c.t, c.s.heads);
  for (;;) {
    uint32_t h = height(c);
    if (path) *path = c.lane < c.s.levels() ? head_of_lane(c) : kNil;  // levels above the height: their heads
    uint32_t cur = head_of(c, h > to_level ? h : to_level);
    if (h <= to_level) return cur;
    bool have_prev = false;
    chunk_read prev;
    bool restart = false;
    for (uint32_t hops = 0; c.ok && h > to_level; ++hops) {
      if (hops > c.s.pool_chunks * c.s.levels()) {
        c.fail("gfsl: a descent longer than the structure: a cycle", c.s.next_free);
        return kNil;
      }
      if (!c.valid_chunk(cur)) return kNil;
      chunk_read r = c.read(cur);
      if (c.zombie(r)) {
        if (unlink) {
          const chunk_read live = first_non_zombie(c, r);
          if (!c.ok) return kNil;
          if (have_prev) unlink_zombie(c, prev.chunk, cur, live);
          else if (c.lane == 0 && head_of_level_is(c, h, cur))
            c.t.cas(c.s.heads + h, cur, live.chunk, c.publish_order(), core::scope::gpu);
          c.sync_writes();
          r = live;
          cur = live.chunk;
        } else {
          cur = c.next_of(r);
          continue;
        }
      }
      const uint32_t step = c.step_toward(r, k);
      if (step == c.next_lane) {  // lateral
        prev = r;
        have_prev = true;
        cur = c.next_of(r);
      } else if (step != kNone) {  // down
        c.act_on(r, "stepped down from");
        if (path && c.lane == h) *path = cur;
        --h;
        have_prev = false;
        cur = c.value_from(r, step);
      } else {  // backtrack: down from the previous chunk's largest key <= k
        if (!have_prev) {
          restart = true;
          break;
        }
        c.act_on(prev, "stepped down from");
        if (path && c.lane == h) *path = prev.chunk;
        --h;
        const uint32_t from = c.highest(c.data_lane() && key_of(prev.e) <= k);
        cur = c.value_from(prev, from == kNone ? 0 : from);
        have_prev = false;
      }
    }
    if (!c.ok) return kNil;
    if (!restart) return cur;
    if (!c.spin(restarts)) return kNil;
  }
}

template <class Team>
WC_HD uint32_t head_of_lane(team_context<Team>& c) {
  return c.t.load(c.s.heads + c.lane, c.read_order(), core::scope::gpu);
}

template <class Team>
WC_HD uint32_t search_down(team_context<Team>& c, uint32_t k, uint32_t to_level) {
  return descend(c, k, to_level, nullptr, false);
}

template <class Team>
WC_HD lateral_result search_slow(team_context<Team>& c, uint32_t k, uint32_t& path) {
  const uint32_t bottom = descend(c, k, 0, &path, true);
  if (!c.ok) return {};
  lateral_result r = walk_to_enclosing(c, bottom, k, 0, true);
  if (c.lane == 0) path = r.at.chunk;  // the path's bottom: k's enclosing chunk
  return r;
}

}  // namespace warpcheck::structures::gfsl_detail
