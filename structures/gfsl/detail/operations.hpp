// The three operations: Contains (Algorithm 4.1, answering the value),
// Insert (Algorithm 4.5 with insertToLevel and splitInsert, 4.9) and Delete
// (Algorithm 4.11), and gfsl::apply.
#pragma once
#include "structures/gfsl/detail/removal.hpp"

namespace warpcheck::structures::gfsl_detail {

struct outcome {
  bool yes = false;     // found / inserted / deleted
  uint32_t value = 0;   // FIND: the value found
  uint64_t point = 0;   // the linearization point's stamp
};

template <class Team>
WC_HD outcome find(team_context<Team>& c, uint32_t k) {
  const uint32_t bottom = search_down(c, k, 0);
  if (!c.ok) return {};
  const lateral_result r = walk_to_enclosing(c, bottom, k, 0, false);
  if (!c.ok) return {};
  return {r.found(), r.found() ? c.value_from(r.at, r.lane) : 0u, r.point};
}

// A split raises a key with probability p_chunk (thesis 4.2.2), from a hash
// of the team and its split count: deterministic, so runs replay.
template <class Team>
WC_HD bool key_raised(team_context<Team>& c, gfsl::lane_state& state) {
  const uint32_t h = static_cast<uint32_t>(detail::mix_pair(c.t.team_id(), ++state.splits) >> 32);
  return h < c.s.raise_below || c.s.raise_below == ~0u;
}

// insertToLevel (Algorithm 4.5, lines 28-46): locks k's enclosing chunk of
// `level` from `enc` (left locked, in `enc`), and inserts <k, v> there,
// splitting it when full; false when k is already there. After a split
// `k` becomes the key to raise (keyForNextLevel) and `raise` says whether to.
template <class Team>
WC_HD bool insert_to_level(team_context<Team>& c, gfsl::lane_state& state, uint32_t level, uint32_t& enc, uint32_t& k,
                           uint32_t v, bool& raise, uint64_t& point) {
  enc = lock_enclosing(c, enc, k);
  if (!c.ok) return false;
  const chunk_read r = c.read(enc);
  const uint32_t seen = c.lane_with_key(r, k);
  if (seen != kNone) {
    point = stamp_of(c, seen);
    return false;
  }
  raise = false;
  if (c.count_keys(r) < c.dsize) {
    point = insert_into(c, r, k, v);
    if (level > 0 && level_empty(c, level)) count_chunks(c, level, +1);
    return true;
  }
  // splitInsert (Algorithm 4.9).
  const split_result s = split_chunk(c, enc);
  if (!c.ok) return false;
  const uint32_t target = k > s.threshold ? s.fresh : enc;  // insertNewData
  point = insert_into(c, c.read(target), k, v);
  c.unlock(target == enc ? s.fresh : enc);  // lines 6-9: the chunk holding k stays locked
  const uint32_t min_moved = c.key_from(s.before, c.dsize / 2);
  // keyForNextLevel: from the bottom, the new chunk's smallest key or k,
  // whichever is larger (a smaller one would need a new traversal); above,
  // the key that caused the split.
  // Finding G6: when k < minK the key raised is minK, in the new chunk,
  // which lines 6-7 just unlocked: a concurrent Delete of minK can finish
  // before the raise, leaving minK in the levels above and not in the
  // bottom (thesis 4.3, "Order Between Down Pointers", assumes the raised
  // key is in the locked bottom chunk). Fix: raise k, which the team holds.
  const uint32_t raised =
      level == 0 && !c.s.fixed(gfsl_fix::raise_locked_key) ? (k > min_moved ? k : min_moved) : k;
  update_down_pointers(c, level, s.before, c.dsize / 2, c.dsize, s.fresh);
  enc = target;
  k = raised;
  count_chunks(c, level, +1);
  raise = key_raised(c, state);
  return true;
}

template <class Team>
WC_HD outcome insert(team_context<Team>& c, gfsl::lane_state& state, uint32_t k, uint32_t v) {
  uint32_t path = kNil;
  const lateral_result found = search_slow(c, k, path);
  if (!c.ok) return {};
  if (found.found()) return {false, 0, found.point};
  uint32_t bottom = c.t.shfl(path, 0u), key = k;
  bool raise = false;
  outcome out;
  if (!insert_to_level(c, state, 0, bottom, key, v, raise, out.point)) {
    if (c.ok) c.unlock(bottom);
    return out;
  }
  out.yes = true;
  uint32_t down = bottom;  // the raised key's value: the chunk below holding it, or left of it
  for (uint32_t level = 1; c.ok && raise && level < c.s.levels(); ++level) {
    uint32_t enc = c.t.shfl(path, level);
    uint64_t ignored = 0;
    insert_to_level(c, state, level, enc, key, down, raise, ignored);
    if (!c.ok) return out;
    down = enc;
    c.unlock(enc);
  }
  if (c.ok) c.unlock(bottom);
  return out;
}

template <class Team>
WC_HD outcome erase(team_context<Team>& c, uint32_t k) {
  uint32_t path = kNil;
  const lateral_result found = search_slow(c, k, path);
  if (!c.ok) return {};
  if (!found.found()) return {false, 0, found.point};
  const uint32_t bottom = lock_enclosing(c, c.t.shfl(path, 0u), k);
  if (!c.ok) return {};
  const chunk_read r = c.read(bottom);
  if (c.lane_with_key(r, k) == kNone) {
    // Finding G2: Algorithm 4.11 returns false here (k was deleted since the
    // search) with the bottom chunk still locked; the next team to need it
    // spins forever. Fix: unlock it.
    if (c.s.fixed(gfsl_fix::unlock_on_vanished_key)) c.unlock(bottom);
    return {false, 0, stamp_of(c, c.next_lane)};
  }
  // Lines 12-20: from the height down, lock-delete-unlock where k is.
  for (uint32_t level = height(c); c.ok && level > 0; --level) {
    const uint32_t start = c.t.shfl(path, level);
    const lateral_result at = walk_to_enclosing(c, start, k, level, false);
    if (!c.ok || !at.found()) continue;
    const uint32_t enc = lock_enclosing(c, start, k);
    if (!c.ok) return {};
    remove_from_chunk(c, k, enc, level);
  }
  if (!c.ok) return {};
  return {true, 0, remove_from_chunk(c, k, bottom, 0)};  // line 22: from the bottom last
}

}  // namespace warpcheck::structures::gfsl_detail

namespace warpcheck::structures {

template <class Team>
WC_HD core::op_result gfsl::apply(Team& t, const core::workload_op& op, lane_state& state, const core::point_clock& clock) const {
  gfsl_detail::team_context<Team> c(t, *this, clock);
  const uint32_t k = static_cast<uint32_t>(op.key) + 1;  // 0 is minus infinity
  gfsl_detail::outcome o;
  core::op_result r;
  switch (op.kind) {
    case OpKind::Insert:
      o = gfsl_detail::insert(c, state, k, static_cast<uint32_t>(op.value));
      r.kind = ResultKind::Bool;
      r.value = o.yes;
      break;
    case OpKind::Erase:
      o = gfsl_detail::erase(c, k);
      r.kind = ResultKind::Bool;
      r.value = o.yes;
      break;
    case OpKind::Find:
      o = gfsl_detail::find(c, k);
      r.kind = o.yes ? ResultKind::Value : ResultKind::Absent;
      r.value = o.yes ? o.value : 0;
      break;
    default:
      if (t.lane() == 0) t.fail("gfsl: unsupported operation", nullptr);
      return {core::op_status::failed};
  }
  t.sync();  // the operation's last shared access is behind every lane
  if (!c.ok) return {core::op_status::gave_up};
  r.has_point = clock.enabled;
  r.point = o.point;
  return r;
}

}  // namespace warpcheck::structures
