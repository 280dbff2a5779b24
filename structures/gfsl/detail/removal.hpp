// Removing a key from a locked chunk (removeFromChunk, Algorithm 4.12): a
// left shift when the chunk stays above DSIZE/3 keys, else a merge into the
// next chunk that marks this one a zombie (splitting the next one first
// when both do not fit), and the last chunk of a level, which is never
// merged.
#pragma once
#include "structures/gfsl/detail/insertion.hpp"

namespace warpcheck::structures::gfsl_detail {

// executeRemoveNoMerge: the lanes from k's index on write their right
// neighbour's entry one place left, from k's index up (no key vanishes
// while it moves); the last key's slot becomes EMPTY. When k is the chunk's
// largest key and the chunk is not its level's last, the NEXT lane lowers
// the max first (a max that no key of the chunk reaches would send a
// traversal past a key still there). Returns the stamp of the store that
// overwrote k (its linearization point); kNone lane: k is not there (the run fails).
template <class Team>
WC_HD uint64_t remove_by_shift(team_context<Team>& c, const chunk_read& r, uint32_t k) {
  const uint32_t at = c.lane_with_key(r, k);
  if (at == kNone) {
    c.fail("gfsl: removing a key its locked enclosing chunk does not hold", c.s.entry_at(r.chunk, 0));
    return 0;
  }
  const uint32_t count = c.count_keys(r);
  const uint32_t max = c.max_of(r);
  if (at + 1 == count && count >= 2 && max != kEmptyKey) {
    const uint32_t below = c.key_from(r, count - 2);
    if (c.is_next()) c.write(r.chunk, c.next_lane, entry(below, value_of(r.e)));
    c.sync_writes();
  }
  const uint64_t right = c.t.shfl(r.e, c.lane + 1 < c.n ? c.lane + 1 : c.lane);
  uint64_t point = 0;
  for (uint32_t i = at; i < count; ++i) {
    if (c.lane == i) {
      c.write(r.chunk, i, i + 1 < count ? right : kEmptyEntry);
      if (i == at) point = c.clock.now(c.t);
    }
    c.sync_writes();
  }
  return c.t.shfl(point, at);
}

// The zombie mark: the chunk's lock becomes ZOMBIE, for good (release: the
// merge's copies are visible first). Returns its stamp.
template <class Team>
WC_HD uint64_t mark_zombie(team_context<Team>& c, uint32_t ch) {
  uint64_t point = 0;
  if (c.is_lock()) {
    uint64_t* word = c.s.entry_at(ch, c.lock_lane);
    const uint64_t held = c.t.load(word, core::order::relaxed, core::scope::gpu);
    c.t.store(word, lock_word(version_of(held), kZombieOwner), c.publish_order(), core::scope::gpu);
    point = c.clock.now(c.t);
    c.t.retire(c.s.entry_at(ch, 0));
    c.t.lock_released(word);
  }
  return c.t.shfl(point, c.lock_lane);
}

// executeRemoveMerge: the next chunk receives every key of `enc` but k in
// its low entries and moves its own up; entries are written one at a time
// from the highest down, so a traversal (which prefers higher lanes) never
// misses one. False when they do not fit (the run fails).
template <class Team>
WC_HD bool merge_into_next(team_context<Team>& c, const chunk_read& enc, const chunk_read& next, uint32_t k) {
  const uint32_t at = c.lane_with_key(enc, k);
  const uint32_t count = c.count_keys(enc), next_count = c.count_keys(next);
  if (at == kNone) return c.fail("gfsl: merging away a chunk that does not hold the key removed", c.s.entry_at(enc.chunk, 0));
  const uint32_t kept = count - 1, total = kept + next_count;
  if (total > c.dsize) return c.fail("gfsl: a merge's keys do not fit the next chunk", c.s.entry_at(next.chunk, 0));
  const uint32_t from_enc = c.lane < at ? c.lane : c.lane + 1;
  const uint32_t from_next = c.lane >= kept ? c.lane - kept : 0u;
  const uint64_t a = c.t.shfl(enc.e, from_enc < c.n ? from_enc : 0u);
  const uint64_t b = c.t.shfl(next.e, from_next < c.n ? from_next : 0u);
  const uint64_t mine = c.lane < kept ? a : b;
  for (int32_t i = int32_t(total) - 1; i >= 0; --i) {
    if (c.lane == uint32_t(i)) c.write(next.chunk, c.lane, mine);
    c.sync_writes();
  }
  return true;
}

// removeFromChunk (Algorithm 4.12) on `enc`, locked by this team; unlocks
// what it locked. Returns the stamp of the access that removed k.
template <class Team>
WC_HD uint64_t remove_from_chunk(team_context<Team>& c, uint32_t k, uint32_t enc, uint32_t level) {
  const chunk_read r = c.read(enc);
  const uint32_t count = c.count_keys(r);
  if (count > c.dsize / 3) {  // lines 4-7: no merge
    const uint64_t point = remove_by_shift(c, r, k);
    c.unlock(enc);
    return point;
  }
  bool last = false;
  const uint32_t next = lock_next(c, enc, last);  // line 9
  if (!c.ok) return 0;
  if (last) {  // lines 10-13: the last chunk of a level is never merged; it may empty
    const uint64_t point = remove_by_shift(c, r, k);
    if (count == 2 && c.key_from(r, 0) == kNegInfKey) count_chunks(c, level, -1);  // only minus infinity left
    // Finding G11: lines 11-12 return with pEnc locked (lines 6 and 26
    // unlock it in the other two cases; nothing releases it here): the
    // last chunk of the level stays locked for good. Fix: unlock it.
    if (c.s.fixed(gfsl_fix::unlock_last_chunk)) c.unlock(enc);
    return point;
  }
  chunk_read n = c.read(next);  // line 15
  if (c.count_keys(n) + count - 1 > c.dsize) {  // lines 16-19: split the next chunk first
    const split_result s = split_chunk(c, next);
    if (!c.ok) return 0;
    c.unlock(s.fresh);
    count_chunks(c, level, +1);
    update_down_pointers(c, level, s.before, c.dsize / 2, c.dsize, s.fresh);
    if (!c.ok) return 0;
    // Finding G3: line 21 merges with nextKv as read at line 15, before the
    // split moved its upper half out; written back, those keys are in two
    // chunks of the level (and the merge may not fit). Fix: read it again.
    if (c.s.fixed(gfsl_fix::reread_next_after_split)) n = c.read(next);
  }
  uint64_t point = 0;
  if (c.s.planted(gfsl_mutant::zombie_before_copy)) point = mark_zombie(c, enc);
  if (!merge_into_next(c, r, n, k)) return 0;  // line 21
  if (!c.s.planted(gfsl_mutant::zombie_before_copy)) point = mark_zombie(c, enc);  // line 22
  count_chunks(c, level, -1);
  c.unlock(next);
  c.unlock(enc);  // a zombie: nothing to release (see team_context::unlock)
  if (!c.s.planted(gfsl_mutant::skip_down_ptr_update)) update_down_pointers(c, level, r, 0, count, next, k);  // line 27
  return point;
}

}  // namespace warpcheck::structures::gfsl_detail
