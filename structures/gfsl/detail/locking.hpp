// Locking chunks: findAndLockEnclosing (Algorithm 4.8) and lockNextChunk
// (used by preSplit and removeFromChunk), which unlinks zombies it meets.
#pragma once
#include "structures/gfsl/detail/traversal.hpp"

namespace warpcheck::structures::gfsl_detail {

// Spins, laterally, until k's enclosing chunk of the level is locked by
// this team; returns it (kNil when the team gave up).
template <class Team>
WC_HD uint32_t lock_enclosing(team_context<Team>& c, uint32_t from, uint32_t k) {
  uint32_t ch = from;
  core::bounded_spin<Team> wait(c.t, c.s.entry_at(from, c.lock_lane));
  for (uint32_t hops = 0; c.ok;) {
    if (!c.valid_chunk(ch)) return kNil;
    chunk_read r = c.read(ch);
    if (c.not_enclosing(r, k)) {  // lines 5-8
      if (++hops > c.s.pool_chunks) {
        c.fail("gfsl: a lateral walk longer than the pool: a cycle in a level", c.s.next_free);
        return kNil;
      }
      ch = c.next_of(r);
      continue;
    }
    if (c.locked(r) || !c.try_lock(r)) {  // lines 10-14
      wait.now_on(c.s.entry_at(ch, c.lock_lane));
      if (!c.spin(wait)) return kNil;
      continue;
    }
    r = c.read(ch);  // line 16: still enclosing, now that it is ours?
    if (c.not_enclosing(r, k)) {
      c.unlock(ch);
      ch = c.next_of(r);
      continue;
    }
    c.act_on(r, "locked");
    return ch;
  }
  return kNil;
}

// lockNextChunk: locks the first non-zombie chunk after `held` (which this
// team holds), pointing `held` past the zombies in between; kNil when
// `held` is the last chunk of its level (then `last` is set).
template <class Team>
WC_HD uint32_t lock_next(team_context<Team>& c, uint32_t held, bool& last) {
  last = false;
  core::bounded_spin<Team> wait(c.t, c.s.entry_at(held, c.lock_lane));
  for (uint32_t hops = 0; c.ok;) {
    const chunk_read mine = c.read(held);
    const uint32_t next = c.next_of(mine);
    if (next == kNil) {
      last = true;
      return kNil;
    }
    if (!c.valid_chunk(next)) return kNil;
    const chunk_read r = c.read(next);
    if (c.zombie(r)) {  // unlink it: `held` is ours
      if (++hops > c.s.pool_chunks) {
        c.fail("gfsl: a chain of zombies longer than the pool", c.s.next_free);
        return kNil;
      }
      const uint32_t past = c.next_of(r);
      if (c.is_next()) c.write(held, c.next_lane, entry(key_of(mine.e), past), c.publish_order());
      c.sync_writes();
      continue;
    }
    if (c.locked(r) || !c.try_lock(r)) {
      wait.now_on(c.s.entry_at(next, c.lock_lane));
      if (!c.spin(wait)) return kNil;
      continue;
    }
    c.act_on(r, "locked");
    return next;
  }
  return kNil;
}

}  // namespace warpcheck::structures::gfsl_detail
