// Insertion into a locked chunk (executeInsert, Algorithm 4.7), the split
// shared by inserts and merges (preSplit and splitCopy, Algorithm 4.9), and
// updateDownPtrs (Algorithm 4.10).
#pragma once
#include "structures/gfsl/detail/locking.hpp"

namespace warpcheck::structures::gfsl_detail {

// Level counters (levels >= 1; the bottom's is not kept).
template <class Team>
WC_HD void count_chunks(team_context<Team>& c, uint32_t level, int delta) {
  if (level > 0 && c.lane == 0)
    c.t.fetch_add(c.s.level_chunks + level, static_cast<uint32_t>(delta), core::order::relaxed, core::scope::gpu);
}
template <class Team>
WC_HD bool level_empty(team_context<Team>& c, uint32_t level) {
  uint32_t n = 0;
  if (c.lane == 0) n = c.t.load(c.s.level_chunks + level, core::order::relaxed, core::scope::gpu);
  return c.t.shfl(n, 0u) == 0;
}

// executeInsert: every lane takes its left neighbour's entry and the lanes
// from k's index on write them one place right, from the last DATA entry
// down to k's, one at a time (so no key vanishes from the chunk while it
// moves; a key seen twice is harmless, traversals prefer higher lanes).
// Returns the stamp of the store that wrote <k, v> (its linearization point).
template <class Team>
WC_HD uint64_t insert_into(team_context<Team>& c, const chunk_read& r, uint32_t k, uint32_t v) {
  const uint64_t left = c.t.shfl(r.e, c.lane > 0 ? c.lane - 1 : 0u);
  const uint32_t at = c.t.count(c.data_lane() && key_of(r.e) < k);
  const uint64_t mine = c.lane == at ? entry(k, v) : left;
  uint64_t point = 0;
  for (int32_t i = int32_t(c.dsize) - 1; i >= int32_t(at); --i) {
    if (c.lane == uint32_t(i) && key_of(mine) != kEmptyKey) {
      c.write(r.chunk, c.lane, mine);
      if (c.lane == at) point = c.clock.now(c.t);
    }
    c.sync_writes();
  }
  return c.t.shfl(point, at);
}

// A split: the top DSIZE/2 entries of `split` (locked by this team, full)
// move to a new chunk linked after it.
struct split_result {
  uint32_t fresh = kNil;  // the new chunk, still locked by this team
  chunk_read before;      // the split chunk as it was (its upper half moved)
  uint32_t threshold = 0; // the largest key left in `split`: its new max
};

template <class Team>
WC_HD split_result split_chunk(team_context<Team>& c, uint32_t split) {
  split_result out;
  // preSplit (lines 16-21): lock the next chunk, allocate the new one.
  bool last = false;
  const uint32_t next = lock_next(c, split, last);
  if (!c.ok) return out;
  out.fresh = c.allocate();
  if (!c.ok) return out;
  // splitCopy (lines 23-34).
  const chunk_read r = c.read(split);
  out.before = r;
  const uint32_t half = c.dsize / 2;
  out.threshold = c.key_from(r, half - 1);
  const uint32_t old_max = c.max_of(r);
  const bool moved = c.data_lane() && c.lane >= half;
  auto copy = [&] {
    if (moved) c.write(out.fresh, c.lane - half, r.e);
    if (c.is_next()) c.write(out.fresh, c.next_lane, entry(old_max, last ? kNil : next));  // the new chunk takes the old max and next
    c.sync_writes();
  };
  auto link = [&] {  // one 64-bit write: the new max and the new chunk; release publishes the copy
    if (c.is_next()) c.write(split, c.next_lane, entry(out.threshold, out.fresh), c.publish_order());
    c.sync_writes();
  };
  auto empty_moved = [&] {
    if (moved) c.write(split, c.lane, kEmptyEntry);
    c.sync_writes();
  };
  if (c.s.planted(gfsl_mutant::link_before_copy)) {
    link();
    copy();
    empty_moved();
  } else if (c.s.planted(gfsl_mutant::empty_before_link)) {
    copy();
    empty_moved();
    link();
  } else {
    copy();
    link();
    empty_moved();
  }
  // Finding G1: preSplit locks the next chunk and nothing in Algorithm 4.9
  // (nor in removeFromChunk's splitRemove) releases it: the next chunk
  // stays locked forever and the next team that needs it spins. Fix: once
  // the new chunk is linked (its NEXT already points at that chunk).
  if (c.s.fixed(gfsl_fix::unlock_next_after_split) && next != kNil) c.unlock(next);
  return out;
}

// updateDownPtrs (Algorithm 4.10): for the keys of `moved` in lanes
// [first, last) of `from` (the keys that left a chunk of `level`, now in or
// after `lower`), point their entries one level up at the chunk of `level`
// that encloses them now. `skip`: a key not to update (the deleted one).
template <class Team>
WC_HD void update_down_pointers(team_context<Team>& c, uint32_t level, const chunk_read& from, uint32_t first, uint32_t last,
                                uint32_t lower, uint32_t skip = kEmptyKey) {
  if (level + 1 >= c.s.levels()) return;
  uint32_t upper = kNil;
  for (uint32_t j = first; c.ok && j < last; ++j) {
    const uint32_t key = c.key_from(from, j);
    if (key == kEmptyKey || key == skip) continue;
    if (upper == kNil) upper = search_down(c, key, level + 1);  // line 4: once, for the smallest key
    if (!c.ok) return;
    const lateral_result up = walk_to_enclosing(c, upper, key, level + 1, false, absent_answer::as_read);
    if (!c.ok) return;
    upper = up.at.chunk;
    if (!up.found()) continue;
    const uint32_t held = lock_enclosing(c, upper, key);
    if (!c.ok) return;
    const lateral_result low = walk_to_enclosing(c, lower, key, level, false, absent_answer::as_read);
    if (c.ok && low.found()) {
      const chunk_read u = c.read(held);
      const uint32_t at = c.lane_with_key(u, key);
      if (at != kNone) {
        // Line 11 points the key at lowerMovedCh, the chunk its keys moved
        // to; the fix (down_ptr_to_found_chunk) points it at the enclosing
        // chunk the line-10 walk found, as section 4.3 says ("the chunk it
        // discovered"). Both reach the key laterally.
        const uint32_t target = c.s.fixed(gfsl_fix::down_ptr_to_found_chunk) ? low.at.chunk : lower;
        c.act_on(low.at, "linked to");
        if (c.lane == at) c.write(held, at, entry(key, target));
        c.sync_writes();
      }
    }
    c.unlock(held);
    upper = held;
  }
}

}  // namespace warpcheck::structures::gfsl_detail
