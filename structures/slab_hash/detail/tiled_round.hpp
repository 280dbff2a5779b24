// slab_hash::serve_round: a warp serves every lane's operation of a round
// (the bulk driver's, core::run_team_bulk), several at a time.
//
// Tiles: the warp's lanes in tiles of 8 (four a warp, F & kQuarterTiles,
// slab_hash_fixed's default) or of 16 (two); a tile serves the operations
// of its own lanes, one at a time, and reads its operation's slab whole:
// pairs 0-14 hold keys and values, pair 15 the guard and the link, each
// pair loaded as one 64-bit word. One warp load reads four (or two) slabs,
// and one ballot and one shuffle decide every tile's step. Against serve()
// (one operation a warp step, lanes 2j and 2j+1 both loading pair j) that
// is a quarter (a half) of the steps, and four (two) slab reads in flight a
// warp: on an H100 the searches run 1.4-1.7x faster (bench/RESULTS.md,
// "Slab hash", issue 16 round 3).
//
// Why a tile reads a slab as soundly as the warp does: the slab's pairs are
// read by the same 64-bit single-copy-atomic loads, and every decision
// (the lowest candidate slot, the link) is taken from them as before. The
// tiles of one warp are, to the structure, separate teams: each follows
// its own operation, and the only thing they share is the warp's
// allocator state, used by all tiles together (a warp-wide allocation,
// then one tile's link CAS).
//
// The order inside a round: the writes first, then the searches (the
// public SlabHash's batched kernel's order: inserts, deletes, searches);
// a tile serves its lanes lowest first. Every operation of a round is
// served while the warp holds all of them, so any order is a schedule the
// warp could have run; the recordings that go with rounds (per warp batch,
// or none) give each operation the warp's interval.
//
// Passes: a map round's writes, then its searches; a multimap round's
// inserts, then its deletes and searches, which take the delete guard's
// seqlock snapshot of each slab a tile reads (slab_hash.hpp: every lane of
// the tile sees one quiet guard word before its loads and the same after)
// before they answer absent or move on to the next slab.
//
// Variants: the tiles run only with the mode fixed at compile time
// (slab_hash_fixed), that is with every fix of the printed Figure 2 but,
// when F & kWithoutDeleteGuard, delete_guard (the benchmark's --guard off
// and the tests of the tiles' directed race). Stress runs never take them
// (core::run_team_ops serves one operation at a time through serve(),
// where every fix is a switch); docs/papers/slab_hash.md says why the
// printed lines need no second rendering here.
#pragma once

namespace warpcheck::structures {

template <int F, class Team>
WC_HD core::op_result slab_hash::serve_round(Team& t, const lane_op& mine, bool pending, lane_state& alloc_state) const {
  core::op_result res;  // this lane's operation's
  const uint32_t verb = mine.head >> 30;
  constexpr uint32_t kFind = 1u << kFindVerb, kInsert = 1u << kInsertVerb, kErase = 1u << kEraseVerb;
  if constexpr (read_only_launch<F>() || insert_only_launch<F>()) {
    constexpr uint32_t kOnly = read_only_launch<F>() ? kFindVerb : kInsertVerb;
    if (t.any(pending && verb != kOnly)) {
      if (t.lane() == 0) t.fail("slab_hash: a read-only or insert-only launch holds another operation", nullptr);
      res.status = core::op_status::failed;
      return res;
    }
    serve_tiled<1u << kOnly, F>(t, mine, pending, alloc_state, res);
    return res;
  }
  if (t.any(pending && verb == kBadVerb)) {
    if (t.lane() == 0) t.fail("slab_hash: unsupported operation", nullptr);
    res.status = core::op_status::failed;
    return res;
  }
  if (mode_of<F>() == slab_hash_mode::map) {
    // The writes in one pass, then the searches in a pass of their own
    // (the searches' loop, without a CAS or an allocation, is about half
    // the instructions a step).
    serve_tiled<kInsert | kErase, F>(t, mine, pending, alloc_state, res);
    if (t.any(res.status != core::op_status::done)) return res;
    serve_tiled<kFind, F>(t, mine, pending, alloc_state, res);
    return res;
  }
  // Multimap: the inserts, then the deletes and searches under the guard.
  serve_tiled<kInsert, F>(t, mine, pending, alloc_state, res);
  if (t.any(res.status != core::op_status::done)) return res;
  serve_tiled<kErase | kFind, F>(t, mine, pending, alloc_state, res);
  return res;
}

// The lanes' operations of the verbs in Verbs (a bit a verb), one a tile
// at a time. A tile's queue (its lanes with such an operation still to
// serve; the lowest is the one in hand), slab, key and verb are the same on
// the tile's lanes; the loop ends on a vote, so its control stays
// warp-uniform.
//
// Tiles of 16 lanes (two a warp) hold one pair a lane; tiles of 8 lanes
// (four a warp, F & kQuarterTiles) hold two: lane j of a tile holds pairs
// j and j + 8, so that each of the tile's loads reads 64 contiguous bytes
// (two 32-byte sectors), and the tile's last lane's last pair is pair 15,
// the guard and the link.
template <uint32_t Verbs, int F, class Team>
WC_HD void slab_hash::serve_tiled(Team& t, const lane_op& mine, bool pending, lane_state& alloc_state,
                                  core::op_result& res) const {
  constexpr uint32_t kTileLanes = quarter_tiles<F>() ? 8 : 16, kPairs = 16 / kTileLanes;
  // A bit a tile: its first lane (the tiles' votes), its last (pair 15's lane).
  constexpr uint32_t kFirstLanes = kTileLanes == 16 ? 0x00010001u : 0x01010101u;
  constexpr uint32_t kLastLanes = kFirstLanes << (kTileLanes - 1);
  constexpr bool kInserts = Verbs & (1u << kInsertVerb), kErases = Verbs & (1u << kEraseVerb),
                 kFinds = Verbs & (1u << kFindVerb);
  const bool multi = mode_of<F>() == slab_hash_mode::multimap;
  // Multimap searches and deletes beside writers answer absent (and move
  // on to the next slab) only from a snapshot of the slab: the delete
  // guard's seqlock read (slab_hash.hpp), taken by each tile for its slab.
  const bool guarded = (kFinds || kErases) && absent_needs_snapshot<F>();
  const uint32_t lane = t.lane();
  const uint32_t base = lane & ~(kTileLanes - 1);  // the tile's first lane
  const uint32_t tile_lanes = (kTileLanes == 16 ? 0xFFFFu : 0xFFu) << base;
  const uint32_t first_pair = lane - base;  // this lane's first pair in the slab; the next, kTileLanes on
  const bool mine_served = pending && ((Verbs >> (mine.head >> 30)) & 1u);
  uint32_t queue = t.ballot(mine_served) & tile_lanes;
  if (!t.any(queue != 0)) return;
  // This lane's operation's result, kept in two registers until the end:
  // its status and kind (got_code: status | kind << 8), and its value.
  uint32_t got_code = 0, got_value = 0;
  auto code = [](core::op_status st, ResultKind k) { return uint32_t(st) | uint32_t(k) << 8; };
  uint32_t* words = nullptr;  // the slab the tile reads; null: the operation in hand starts at its bucket
  uint32_t hops = 0, iterations = 0;
  for (;;) {
    // The operation in hand: its owner's bucket, verb and key (and a map
    // insert's value) on the tile's lanes.
    const bool active = queue != 0;
    const uint32_t src = active ? static_cast<uint32_t>(core::lowest_lane(queue)) : lane;
    const uint32_t head = t.shfl(mine.head, src);
    const uint32_t key = t.shfl(mine.key, src);
    const uint32_t value = kInserts && !multi ? t.shfl(mine.value, src) : 0u;
    const uint32_t verb = head >> 30;
    const bool inserting = kInserts && (!(kErases || kFinds) || verb == kInsertVerb);
    const bool erasing = kErases && (!(kInserts || kFinds) || verb == kEraseVerb);
    if (!words) {
      words = base_slabs + size_t(head & kMaxBuckets) * 32;
      hops = iterations = 0;
    }
    // The tile's slab, kPairs pairs a lane; the lowest wanted pair:
    // inserts, the key itself (map: replace its value) or the first EMPTY
    // slot (EMPTY slots are a suffix: the map-mode argument in
    // slab_hash.hpp); searches and deletes, the key.
    const uint32_t guard = guarded && active ? t.load(&words[kGuardLane], core::order::acquire, core::scope::gpu) : 0u;
    uint64_t pairs[kPairs];
    uint32_t found = 16;  // the lowest wanted pair of the tile's slab (16: none)
    for (uint32_t q = 0; q < kPairs; ++q) {
      pairs[q] = active ? t.load(pair_at(words, 2 * (first_pair + q * kTileLanes)),
                                 read_only_launch<F>() ? core::order::weak
                                 : guarded             ? guarded_load_order<F>()
                                                       : core::order::relaxed,
                                 core::scope::gpu)
                        : kEmptyPair;
      const uint32_t read = key_of(pairs[q]);
      const bool wanted = active && (inserting ? read == kEmptyKey || (!multi && read == key) : read == key);
      // Pair 15 holds the guard and the link, no key.
      const uint32_t hits = t.ballot(wanted) & tile_lanes & (q + 1 == kPairs ? ~kLastLanes : ~0u);
      if (hits && found == 16) found = q * kTileLanes + static_cast<uint32_t>(core::lowest_lane(hits)) - base;
    }
    const bool hit = found < 16;
    const uint32_t at = found < 16 ? found : 15;  // the found pair, or else pair 15 (the link)
    const uint32_t at_lane = base + at % kTileLanes;
    uint64_t seen = pairs[0];  // this lane's pair in the found pair's load
    for (uint32_t q = 1; q < kPairs; ++q)
      if (at / kTileLanes == q) seen = pairs[q];
    const uint32_t word = t.shfl(value_of(seen), at_lane);  // the found pair's value, or else the link
    // A miss under the guard: the read was a snapshot when every lane of
    // the tile saw one quiet guard word before its loads and the same after.
    bool torn = false;
    if (guarded) {
      bool lane_torn = false;
      if (active && !hit) {
        if (fence_after_guarded_read<F>()) t.fence(core::order::acq_rel, core::scope::gpu);
        const uint32_t after = t.load(&words[kGuardLane], core::order::relaxed, core::scope::gpu);
        lane_torn = after != guard || !guard_quiet(guard);
      }
      const uint32_t tile_guard = t.shfl(guard, base);
      torn = (t.ballot(lane_torn || guard != tile_guard) & tile_lanes) != 0 && !hit;
    }
    bool won = false;
    if constexpr (kInserts || kErases) {
      bool ok = false;
      if (hit && (inserting || erasing)) {
        uint64_t* slot = pair_at(words, 2 * at);
        if (erasing && !multi && lane == at_lane)  // map: the pair seen becomes a tombstone
          ok = t.cas(slot, seen, pair(kDeletedKey, kEmptyValue), core::order::relaxed, core::scope::gpu) == seen;
        if (erasing && multi && lane == at_lane) {  // multimap: the pair seen becomes EMPTY, inside the guard
          if (fixed<F>(slab_hash_fix::delete_guard)) guard_enter(t, words);
          ok = t.cas(slot, seen, kEmptyPair, core::order::relaxed, core::scope::gpu) == seen;
          if (fixed<F>(slab_hash_fix::delete_guard)) guard_leave<F>(t, words);
        }
        if (inserting && !multi && lane == at_lane)  // map: against the pair seen, read whole
          ok = t.cas(slot, seen, pair(key, value), core::order::relaxed, core::scope::gpu) == seen;
        if (inserting && multi && lane == src)  // multimap: the owner claims the EMPTY slot
          ok = t.cas(slot, kEmptyPair, pair(mine.key, mine.value), core::order::relaxed, core::scope::gpu) == kEmptyPair;
      }
      won = (t.ballot(ok) & tile_lanes) != 0;
    }
    // The tile's step: its operation finished, or on to the link, or
    // (inserts) a full list that needs a slab, or (a lost CAS) this slab
    // again.
    bool finished = false, needs_slab = false;
    core::op_status status = core::op_status::done;
    if (active) {
      if (inserting || erasing ? won : hit) {
        finished = true;
      } else if (hit || torn) {  // lost the slot to another warp, or a delete overlapped the read: this slab again
        if (!t.spin(words, ++iterations)) finished = true, status = core::op_status::gave_up;
      } else if (word == slab_alloc::kEmptyPointer) {
        if (inserting) needs_slab = true;
        else finished = true;
      } else {
        words = alloc.slab(word);
        if (++hops > alloc.blocks() * slab_alloc::kSlabsPerBlock) {
          finished = true, status = core::op_status::failed;  // a list longer than the allocator has slabs: a cycle
          if (lane == src) t.fail("slab_hash: a slab list longer than the allocator's slabs (a cycle)", nullptr);
        }
      }
    }
    if (finished && lane == src) {
      // Map deletes answer whether they removed the key; multimap deletes
      // and searches, the value found, or absent.
      got_code = code(status, inserting                 ? ResultKind::None
                              : erasing && !multi        ? ResultKind::Bool
                              : (erasing ? won : hit)    ? ResultKind::Value
                                                         : ResultKind::Absent);
      got_value = inserting ? 0u : erasing && !multi ? (won ? 1u : 0u) : (erasing ? won : hit) ? word : 0u;
    }
    if (finished) {
      queue &= queue - 1;
      words = nullptr;
    }
    // A tile's first lane votes that it has more to do, its second that it needs a slab.
    const uint32_t votes = t.ballot(lane == base ? queue != 0 : lane == base + 1 ? needs_slab : false);
    if constexpr (kInserts) {
      for (uint32_t h = 0; h < 32; h += kTileLanes)
        if (votes & (2u << h)) {
          // Tile h's list is full: the warp allocates a slab, the lane of
          // tile h's pair 15 links it, and tile h reads its slab again.
          if (!link_fresh_slab<F>(t, alloc_state, words, h + kTileLanes - 1) && base == h) {
            if (lane == src) got_code = code(core::op_status::failed, ResultKind::None);
            queue = 0;  // the tile stops (the round has failed)
          }
        }
    }
    if (!(votes & kFirstLanes)) break;
  }
  if (mine_served) {
    res.status = static_cast<core::op_status>(got_code & 0xFF);
    res.kind = static_cast<ResultKind>(got_code >> 8);
    res.value = got_value;
  }
}

}  // namespace warpcheck::structures
