// The slab hash (Ashkiani, Farach-Colton, Owens, "A Dynamic Hash Table for
// the GPU", IPDPS 2018): B buckets, each a list of 128-byte slabs read by a
// warp with one coalesced load. Key-value mode: 15 pairs per slab, keys on
// even lanes 0..28, values on odd lanes 1..29, lane 30 unused, lane 31 the
// next slab's handle. Bucket of k: ((a k + b) mod p) mod B.
//
// Warp-cooperative work sharing (core::run_team_ops, core::run_team_bulk):
// every lane holds operations; the warp serves them one at a time, lowest
// lane first. A lane prepares its own operation (prepare(): the bucket
// hashed by each lane in parallel, before the work sharing) and serve()
// broadcasts only what the operation needs from its owner: bucket and
// verb, the key (searches, deletes, map REPLACE), the value (map REPLACE).
// A multimap INSERT's owner CASes its pair itself: no key or value moves.
// The bulk driver's rounds go instead to serve_round(), which serves them
// in tiles of 8 or 16 lanes, several operations a warp step
// (detail/tiled_round.hpp).
//
// Modes and results (what the history records):
//  map       REPLACE(k, v)  upsert, returns nothing
//            DELETE(k)      true when it removed k (the slot becomes a
//                           tombstone, never reused), false when k was absent
//            SEARCH(k)      k's value, or absent
//  multimap  INSERT(k, v)   adds a pair (duplicates allowed), returns nothing
//            DELETE(k)      removes one pair of k and returns its value (the
//                           slot is freed for reuse), or absent
//            SEARCH(k)      some live value of k, or absent
//
// Shared slabs are read with relaxed loads at GPU scope (ld.relaxed.gpu):
// a plain load may be served by this SM's L1, which other SMs' writes do not
// invalidate, so a warp could spin on, or decide from, a stale slab
// forever; relaxed (or volatile) loads go to the coherent L2. Relaxed
// suffices because every decision is confirmed by an atomic on the word
// itself, and slab contents are published by the release of the link CAS.
//
// A slab is read as 64-bit words: lane i loads the aligned pair at words
// 2*(i/2) (lanes 2j and 2j+1 load pair j, one 128-byte transaction as
// before); keys are compared on the even lanes, the link is lane 31's
// high half. An aligned 64-bit load is single-copy
// atomic (PTX memory model; the simulator reads it at one step), so the
// lane of a key also holds that key's value as of the same moment: a
// SEARCH takes the value from it (one shuffle), and REPLACE and DELETE CAS
// against it, with no second read of the pair. (Earlier versions re-read
// the pair after the ballot: one more dependent memory access an
// operation.) The link (lane 31) and the guard (lane 30) are CASed and
// added to as 32-bit words and read inside these 64-bit loads; mixed-size
// accesses were already there (32-bit key reads of 64-bit CASed pairs),
// the GPU's aligned loads do not tear, and the guard's seqlock reads below
// stay 32-bit loads of the guard word alone.
//
// Correctness arguments:
//  - map mode: a slot goes EMPTY -> key -> tombstone and never back, and a
//    warp takes the lowest EMPTY slot of the first slab that has one, so
//    EMPTY slots are a suffix of each list and a full slab never gains a
//    key. Hence a scan that meets k's slot or the first EMPTY slot has seen
//    every slot where k could be, and "absent" holds at the last read.
//  - multimap mode frees slots, so a key's instance can appear behind a
//    scan (in a freed slot it has passed) while another is deleted ahead of
//    it. Across slabs that is still linearizable when each slab is read as
//    a snapshot: a delete removes the first instance in scan order, so it
//    can miss the new one only if it read that slot before the insert wrote
//    it; then delete and insert overlap, and the delete's point can go
//    first, leaving the scan a moment with no instance.
//  - but a warp's read of one slab is 32 loads, not a snapshot (nothing in
//    the PTX memory model makes a coalesced load atomic), and inside one
//    slab the argument fails: the lane of instance A's slot can read after a
//    delete removed A while the lane of a later free slot reads before an
//    insert of B there completed, with B's insert finished before the delete
//    began. There is then no moment without an instance, yet the scan saw
//    none. (PCT found this at seed 2481;
//    tests/structures/slab_hash/test_slab_hash.cpp keeps the race.) So
//    multimap deletes bracket their CAS with a per-slab guard word
//    (lane 30, unused by pairs), and an absent answer is given only from
//    slab reads that the guard shows no delete overlapped: a snapshot.
//  - the guard's release orders a removal only before what the deleter
//    saw: a reader of the new version could miss an insert that the
//    inserting warp then reads past (it still sees the removed pair), the
//    two writes seen in opposite orders. A fence.sc between the removal
//    and the release forbids it (guard_leave; issue 29, found by the
//    relaxed simulator; the mutant guard_leave_without_sc_fence).
#pragma once
#include <cstdint>

#include "structures/core/spin.hpp"
#include "structures/core/workload_op.hpp"
#include "structures/slab_hash/slab_alloc.hpp"
#include "structures/slab_hash/slab_hash_variants.hpp"

namespace warpcheck::structures {

struct slab_hash {
  static constexpr uint32_t kEmptyKey = 0xFFFFFFFFu;
  static constexpr uint32_t kDeletedKey = 0xFFFFFFFEu;
  static constexpr uint32_t kEmptyValue = 0xFFFFFFFFu;
  static constexpr uint64_t kEmptyPair = ~uint64_t(0);
  static constexpr uint32_t kAddressLane = 31;
  static constexpr uint32_t kGuardLane = 30;  // multimap: the slab's delete guard
  static constexpr uint32_t kKeyLanes = 0x15555555u;  // even lanes 0..28: 15 pairs
  static constexpr uint64_t kPrime = 4294967291ull;     // largest prime below 2^32
  static constexpr int64_t kMaxKey = kDeletedKey - 1;

  uint32_t* base_slabs = nullptr;  // buckets * 32 words
  slab_alloc alloc;
  uint32_t buckets = 1;
  uint32_t hash_a = 1, hash_b = 0;
  slab_hash_mode mode = slab_hash_mode::map;
  slab_hash_mutant mutant = slab_hash_mutant::none;
  uint32_t fixes = slab_hash_fix::kAll;  // slab_hash_fix bits: the printed lines replaced
  slab_guard_order guard_order = slab_guard_order::fence;  // multimap: the delete guard's read side (F < 0)

  using lane_state = slab_alloc::warp_state;

  // The algorithm's members take F: -1 reads the mode, the planted bug and
  // the fixes from the fields above (every run but the GPU's bulk
  // benchmark); a mode (0 map, 1 multimap) fixes it at compile time with
  // no planted bug and every fix (but the one bit 4 leaves out), so that
  // the hot path tests none of them (slab_hash_fixed below).
  //
  // F >= 0 is a bit set: bit 0 the mode, bit 1 (kReadOnlyLaunch) a launch
  // of searches only, run while nothing else writes the table (the bulk
  // benchmark's search phases). Such a launch has no data race on the
  // table: every write to it was made by kernels stream-ordered before the
  // launch (their writes are visible to it: CUDA's launch-boundary
  // guarantee), and no operation of the launch writes. So (PTX memory
  // model: a load that races with no write reads the last write in
  // causality order) plain weak loads return the same words the relaxed
  // GPU-scope ones would, and may be served by L1 (LDG, as the public
  // SlabHash's searches read); and the multimap guard, which protects an
  // absent answer from a concurrent delete, has nothing to guard against.
  // serve() then handles SEARCH only (anything else is a fault), so the
  // kernel holds no insert or delete code (no register pressure from it).
  //
  // Bit 2 (kInsertOnlyLaunch): a launch of inserts only (a build). Nothing
  // changes in how the table is accessed; serve() just holds no search or
  // delete code (fewer registers, no spill under the 32-register bound).
  //
  // Bit 3 (kQuarterTiles): serve_round's tiles are 8 lanes wide (four
  // operations a warp step), not 16 (detail/tiled_round.hpp).
  //
  // Bit 4 (kWithoutDeleteGuard): every fix but delete_guard, with the mode
  // fixed: for the tests that show the tiles' directed race is exercised,
  // and for the benchmark's --guard off, which measures what the guard
  // costs. (The tiles run no other printed line: docs/papers/slab_hash.md,
  // "The tiled rounds".)
  //
  // Bit 5 (kGuardAcquireLoads): the guard's read side by acquire loads
  // (slab_guard_order::acquire), not a fence.
  static constexpr int kReadOnlyLaunch = 2, kInsertOnlyLaunch = 4, kQuarterTiles = 8, kWithoutDeleteGuard = 16,
                       kGuardAcquireLoads = 32;
  template <int F>
  WC_HD static constexpr bool read_only_launch() {
    return F >= 0 && (F & kReadOnlyLaunch) != 0;
  }
  template <int F>
  WC_HD static constexpr bool insert_only_launch() {
    return F >= 0 && (F & kInsertOnlyLaunch) != 0;
  }
  template <int F>
  WC_HD static constexpr bool quarter_tiles() {
    return F >= 0 && (F & kQuarterTiles) != 0;
  }
  template <int F>
  WC_HD WC_FORCE_INLINE slab_hash_mode mode_of() const {
    if constexpr (F < 0) return mode;
    else return static_cast<slab_hash_mode>(F & 1);
  }
  template <int F>
  WC_HD WC_FORCE_INLINE slab_hash_mutant mutant_of() const {
    if constexpr (F < 0) return mutant;
    else return slab_hash_mutant::none;
  }
  template <int F>
  WC_HD WC_FORCE_INLINE slab_guard_order guard_order_of() const {
    if constexpr (F < 0) return guard_order;
    else return (F & kGuardAcquireLoads) ? slab_guard_order::acquire : slab_guard_order::fence;
  }
  // A guarded read's slab loads are acquire loads in place of the fence
  // after them when the guard order says so and the loads are relaxed ones
  // to begin with (relaxed_slab_loads: as printed they are plain loads,
  // which cannot be made acquire, so the fence stays). The planted bug
  // guard_read_unordered takes neither.
  template <int F>
  WC_HD bool guarded_loads_acquire() const {
    return guard_order_of<F>() == slab_guard_order::acquire && fixed<F>(slab_hash_fix::relaxed_slab_loads) &&
           mutant_of<F>() != slab_hash_mutant::guard_read_unordered;
  }
  template <int F>
  WC_HD core::order guarded_load_order() const {
    return guarded_loads_acquire<F>() ? core::order::acquire : core::order::relaxed;
  }
  // The read side's fence: whenever the slab loads were not acquire ones.
  template <int F>
  WC_HD bool fence_after_guarded_read() const {
    return !guarded_loads_acquire<F>() && mutant_of<F>() != slab_hash_mutant::guard_read_unordered;
  }
  // True when the fix (a slab_hash_fix bit) replaces its printed line.
  template <int F>
  WC_HD WC_FORCE_INLINE bool fixed(uint32_t fix) const {
    if constexpr (F < 0) return (fixes & fix) != 0;
    else return (F & kWithoutDeleteGuard) == 0 || fix != slab_hash_fix::delete_guard;
  }

  // ((a k + b) mod p) mod B. p = 2^32 - 5, so 2^32 = 5 (mod p): the high
  // word folds into the low one twice, with no 64-bit division (two of
  // them, a subroutine call each on the GPU, were most of an operation's
  // instructions). The same values as the division (tests/structures/
  // slab_hash checks it).
  WC_HD uint32_t bucket_of(uint32_t key) const {
    const uint64_t x = uint64_t(hash_a) * key + hash_b;   // < 2^64: a, b < p
    const uint64_t y = (x >> 32) * 5 + (x & 0xFFFFFFFFu);  // < 6 * 2^32
    uint64_t z = (y >> 32) * 5 + (y & 0xFFFFFFFFu);        // < 2^32 + 25
    if (z >= kPrime) z -= kPrime;
    return static_cast<uint32_t>(z) % buckets;
  }
  WC_HD uint32_t bucket_by_division(uint32_t key) const {  // the definition, for tests
    return static_cast<uint32_t>(((uint64_t(hash_a) * key + hash_b) % kPrime) % buckets);
  }
  WC_HD uint32_t* slab_words(uint32_t bucket, uint32_t handle) const {
    return handle == slab_alloc::kEmptyPointer ? base_slabs + size_t(bucket) * 32 : alloc.slab(handle);
  }
  WC_HD static uint64_t pair(uint32_t key, uint32_t value) { return uint64_t(value) << 32 | key; }
  WC_HD static uint32_t key_of(uint64_t p) { return static_cast<uint32_t>(p); }
  WC_HD static uint32_t value_of(uint64_t p) { return static_cast<uint32_t>(p >> 32); }

  // A lane's operation, prepared by the lane itself (no shared access):
  // head = bucket | verb << 30.
  enum verb : uint32_t { kFindVerb = 0, kInsertVerb = 1, kEraseVerb = 2, kBadVerb = 3 };
  static constexpr uint32_t kMaxBuckets = (1u << 30) - 1;
  struct lane_op {
    uint32_t key = 0, value = 0, head = kBadVerb << 30;
  };
  WC_HD lane_op prepare(OpKind kind, uint32_t key, uint32_t value) const {
    const uint32_t v = kind == OpKind::Find                               ? kFindVerb
                       : kind == OpKind::Upsert || kind == OpKind::Insert ? kInsertVerb
                       : kind == OpKind::Erase                            ? kEraseVerb
                                                                          : kBadVerb;
    return {key, value, v == kBadVerb ? v << 30 : bucket_of(key) | v << 30};
  }

  // Every lane calls with its own prepared operation; the team serves lane
  // src's (src is the same on every lane). The result is every lane's.
  template <int F = -1, class Team>
  WC_HD core::op_result serve(Team& t, const lane_op& mine, uint32_t src, lane_state& alloc_state) const {
    const uint32_t head = t.shfl(mine.head, src);
    const uint32_t bucket = head & kMaxBuckets;
    if constexpr (read_only_launch<F>()) {
      if (head >> 30 == kFindVerb) return search<F>(t, t.shfl(mine.key, src), bucket);
      if (t.lane() == 0) t.fail("slab_hash: a read-only launch holds only searches", nullptr);
      return {core::op_status::failed};
    }
    if constexpr (insert_only_launch<F>()) {
      if (head >> 30 == kInsertVerb) {
        if (mode_of<F>() == slab_hash_mode::multimap) return insert<F>(t, mine.key, mine.value, bucket, src, alloc_state, mine.key);
        return insert<F>(t, t.shfl(mine.key, src), t.shfl(mine.value, src), bucket, src, alloc_state, mine.key);
      }
      if (t.lane() == 0) t.fail("slab_hash: an insert-only launch holds only inserts", nullptr);
      return {core::op_status::failed};
    }
    switch (head >> 30) {
      case kFindVerb: return search<F>(t, t.shfl(mine.key, src), bucket);
      case kEraseVerb: return erase<F>(t, t.shfl(mine.key, src), bucket, src);
      case kInsertVerb:
        if (mode_of<F>() == slab_hash_mode::multimap) return insert<F>(t, mine.key, mine.value, bucket, src, alloc_state, mine.key);
        return insert<F>(t, t.shfl(mine.key, src), t.shfl(mine.value, src), bucket, src, alloc_state, mine.key);
      default:
        if (t.lane() == 0) t.fail("slab_hash: unsupported operation", nullptr);
        return {core::op_status::failed};
    }
  }

  // Every lane calls with its own prepared operation (pending: it has one
  // this round); the team serves all of them, one a tile at a time (tiles
  // of 8 or 16 lanes, detail/tiled_round.hpp), and each lane gets its own operation's
  // result. Modes fixed at compile time only (F >= 0: slab_hash_fixed).
  template <int F, class Team>
  WC_HD core::op_result serve_round(Team& t, const lane_op& mine, bool pending, lane_state& alloc_state) const;

  // Every lane calls with the same operation (tests).
  template <class Team>
  WC_HD core::op_result apply(Team& t, const core::workload_op& op, lane_state& alloc_state) const {
    return serve(t, prepare(op.kind, static_cast<uint32_t>(op.key), static_cast<uint32_t>(op.value)), 0, alloc_state);
  }
  // The generic driver (core::run_team_ops): every lane calls with its own
  // pending operation (or its last), the team serves lane src's. The
  // printed loop's myKey and src_lane (lines 32, 59) are these.
  template <class Team>
  WC_HD core::op_result apply_own(Team& t, const core::workload_op& own, uint32_t src, lane_state& alloc_state) const {
    return serve(t, prepare(own.kind, static_cast<uint32_t>(own.key), static_cast<uint32_t>(own.value)), src, alloc_state);
  }

 private:
  template <uint32_t Verbs, int F, class Team>
  WC_HD void serve_tiled(Team& t, const lane_op& mine, bool pending, lane_state& alloc_state, core::op_result& res) const;

  // Lane i's view of the slab (one coalesced 128-byte read by the warp).
  // With a fix that needs a pair read whole (slab_hash_fix::kNeedPairs):
  // the 64-bit pair at words 2*(i/2). As printed (ReadSlab, line 7): the
  // 32-bit word i, in both halves, so that the key test (the low half, on
  // the even lanes), the value (the high half) and the link (lane 31's
  // high half) read alike either way.
  // Relaxed at GPU scope (the fix relaxed_slab_loads); a plain load as
  // printed, and in a read-only launch (see kReadOnlyLaunch: no write
  // races with it).
  // A read the guard validates (`guarded`) takes guarded_load_order.
  template <int F, class Team>
  WC_HD uint64_t read_slab(Team& t, uint32_t* words, bool guarded) const {
    const core::order o = read_only_launch<F>() || !fixed<F>(slab_hash_fix::relaxed_slab_loads) ? core::order::weak
                          : guarded ? guarded_load_order<F>()
                                    : core::order::relaxed;
    if (fixed<F>(slab_hash_fix::kNeedPairs)) return t.load(pair_at(words, t.lane() & ~1u), o, core::scope::gpu);
    const uint64_t word = t.load(&words[t.lane()], o, core::scope::gpu);
    return word << 32 | word;
  }
  WC_HD static uint64_t* pair_at(uint32_t* words, uint32_t lane) { return reinterpret_cast<uint64_t*>(words + lane); }

  // The delete guard: c = (version << 16) | in_flight counts a slab's
  // multimap deletes (in flight: between the two brackets of a removal CAS;
  // version: finished, mod 2^16). The word holds ~c, so the EMPTY word a
  // slab starts with (0xFFFFFFFF) is c = 0 and no slab needs initializing.
  // In flight stays below 2^16 (fewer warps are resident), so adding to ~c
  // never borrows across the halves.
  WC_HD static bool guard_quiet(uint32_t word) { return ((~word) & 0xFFFFu) == 0; }
  template <class Team>
  WC_HD static void guard_enter(Team& t, uint32_t* words) {
    t.fetch_add(&words[kGuardLane], 0xFFFFFFFFu, core::order::relaxed, core::scope::gpu);  // c += 1: one more in flight
    t.fence(core::order::acq_rel, core::scope::gpu);                                        // ... before the removal CAS
  }
  // Fix (issue 29; the paper has no guard): a fence.sc between the removal
  // and the guard's release. Release alone orders the removal before the
  // new version, but not before a write the deleter has not seen: a reader
  // that acquires the new version could miss an insert whose own warp then
  // still reads the removed pair (store buffering across the release:
  // docs/relaxed-memory.md, "The slab hash multimap"). With the fence.sc,
  // either that warp's fence.sc comes first (the insert reaches every
  // reader of the new version) or the deleter's does (the warp reads the
  // removal).
  template <int F, class Team>
  WC_HD void guard_leave(Team& t, uint32_t* words) const {
    if (mutant_of<F>() != slab_hash_mutant::guard_leave_without_sc_fence) t.fence(core::order::seq_cst, core::scope::gpu);
    t.fetch_add(&words[kGuardLane], 0xFFFF0001u, core::order::release, core::scope::gpu);  // c += 0xFFFF: one fewer, version + 1
  }
  // The guard as seen before a slab read (every lane loads it), or 0 in map mode.
  template <int F, class Team>
  WC_HD uint32_t guard_before(Team& t, const uint32_t* words) const {
    return absent_needs_snapshot<F>() ? t.load(&words[kGuardLane], core::order::acquire, core::scope::gpu) : 0u;
  }
  // True when the slab read between guard_before and now was a snapshot:
  // every lane saw one quiet guard word before its load and the same after
  // (a seqlock read: any delete overlapping a lane's load changed it).
  // The second load follows the lane's slab load by the fence here or by
  // that load's acquire (guarded_load_order): a lane that read a removal
  // then reads the guard its delete entered (the delete's fence.acq_rel
  // before its CAS makes the pair a release pattern).
  template <int F, class Team>
  WC_HD bool read_was_snapshot(Team& t, const uint32_t* words, uint32_t before) const {
    if (fence_after_guarded_read<F>()) t.fence(core::order::acq_rel, core::scope::gpu);
    const uint32_t after = t.load(&words[kGuardLane], core::order::relaxed, core::scope::gpu);
    const uint32_t first = t.shfl(before, 0);
    return t.all(before == first && after == first && guard_quiet(first));
  }
  template <int F>
  WC_HD bool absent_needs_snapshot() const {
    return mode_of<F>() == slab_hash_mode::multimap && fixed<F>(slab_hash_fix::delete_guard) &&
           !read_only_launch<F>();  // no delete runs beside a read-only launch
  }

  // Follows a link, counting hops: a list longer than the allocator has
  // slabs is a cycle (a slab freed while linked, then linked again), and a
  // walk must not go round it forever; a link outside the allocator (a
  // key or DELETED_KEY stored over it: the printed DELETE, line 59) must
  // not be followed. Returns false (fault reported) then.
  // (A fixed variant, F >= 0, never stores over a link: no test.)
  template <int F, class Team>
  WC_HD bool follow(Team& t, uint32_t*& words, uint32_t link, uint32_t& hops) const {
    if (F < 0 && alloc.block_of(link) >= alloc.blocks()) {
      if (t.lane() == 0) t.fail("slab_hash: a link to a slab outside the allocator", nullptr);
      return false;
    }
    words = alloc.slab(link);
    if (++hops <= alloc.blocks() * slab_alloc::kSlabsPerBlock) return true;
    if (t.lane() == 0) t.fail("slab_hash: a slab list longer than the allocator's slabs (a cycle)", nullptr);
    return false;
  }

  // A full list: a new slab, allocated by the whole warp, initialized EMPTY
  // and linked after the slab at `words` (lane `linker`'s) by lane
  // `linker` with a release CAS; a slab that lost the race is given back.
  // False (fault reported) when the allocator is exhausted.
  template <int F, class Team>
  WC_HD bool link_fresh_slab(Team& t, lane_state& alloc_state, uint32_t* words, uint32_t linker) const {
    const uint32_t fresh = alloc.allocate(t, alloc_state);
    if (fresh == slab_alloc::kEmptyPointer) {
      if (t.lane() == 0) t.fail("slab_hash: SlabAlloc exhausted: every memory block is full", nullptr);
      return false;
    }
    if (fixed<F>(slab_hash_fix::initialize_fresh_slab)) {  // the paper shows no initialization (line 43)
      t.store(&alloc.slab(fresh)[t.lane()], kEmptyKey, core::order::weak, core::scope::gpu);  // not yet published
      t.sync();  // every lane's store before the release publishes the slab
    }
    if (t.lane() == linker) {
      // CUDA's atomicCAS (line 45) is relaxed; the fix makes it a release.
      const core::order o = fixed<F>(slab_hash_fix::link_cas_release) ? core::order::release : core::order::relaxed;
      const uint32_t winner = t.cas(&words[kAddressLane], slab_alloc::kEmptyPointer, fresh, o, core::scope::gpu);
      if (winner != slab_alloc::kEmptyPointer) {  // another warp linked its slab first
        if (mutant_of<F>() == slab_hash_mutant::link_free_winner) alloc.deallocate(t, winner);
        else if (mutant_of<F>() != slab_hash_mutant::link_leak) alloc.deallocate(t, fresh);
      }
    }
    t.sync();
    return true;
  }

  template <int F, class Team>
  WC_HD core::op_result search(Team& t, uint32_t key, uint32_t bucket) const {
    uint32_t* words = base_slabs + size_t(bucket) * 32;  // the base slab, then the list's
    core::bounded_spin<Team> retries(t, words);
    uint32_t hops = 0;
    for (;;) {
      const uint32_t guard = guard_before<F>(t, words);
      const uint64_t mine = read_slab<F>(t, words, absent_needs_snapshot<F>());
      // Line 14, as printed: each lane's word against the source's key.
      // (Both lanes of a pair compare its key; the mask keeps the even ones.)
      const uint32_t found = t.ballot(key_of(mine) == key) & kKeyLanes;
      if (!found && absent_needs_snapshot<F>() && !read_was_snapshot<F>(t, words, guard)) {
        if (!retries.again()) return {core::op_status::gave_up};
        continue;  // a delete overlapped the read: read this slab again
      }
      if (found) {
        // Fix: __ffs is 1-based; lowest_lane is 0-based.
        const uint32_t at = static_cast<uint32_t>(core::lowest_lane(found));
        // Fix value_from_key_load: key and value read by two lanes at two
        // times (line 16: the next lane's read), while REPLACE writes them
        // with one 64-bit CAS, can pair a key with another moment's value.
        // Lane `at` read the pair whole, in one load: its value is the
        // key's at that moment. (The planted bug torn_read takes the value
        // from lane at + 1's own load of the pair.)
        const bool whole = fixed<F>(slab_hash_fix::value_from_key_load) && mutant_of<F>() != slab_hash_mutant::torn_read;
        const uint32_t value = t.shfl(value_of(mine), whole ? at : at + 1);
        return {core::op_status::done, ResultKind::Value, value};
      }
      const uint32_t link = t.shfl(value_of(mine), kAddressLane);  // lane 31's half: the link
      if (link == slab_alloc::kEmptyPointer) return {core::op_status::done, ResultKind::Absent, 0};
      if (!follow<F>(t, words, link, hops)) return {core::op_status::failed};
    }
  }

  template <int F, class Team>
  WC_HD core::op_result erase(Team& t, uint32_t key, uint32_t bucket, uint32_t src) const {
    const bool multi = mode_of<F>() == slab_hash_mode::multimap;
    const bool guarded = multi && fixed<F>(slab_hash_fix::delete_guard);
    uint32_t* words = base_slabs + size_t(bucket) * 32;  // the base slab, then the list's
    core::bounded_spin<Team> retries(t, words);
    uint32_t hops = 0;
    for (;;) {
      const uint32_t guard = guard_before<F>(t, words);
      const uint64_t mine = read_slab<F>(t, words, absent_needs_snapshot<F>());
      const uint32_t found = t.ballot(key_of(mine) == key) & kKeyLanes;
      if (!found && absent_needs_snapshot<F>() && !read_was_snapshot<F>(t, words, guard)) {
        if (!retries.again()) return {core::op_status::gave_up};
        continue;  // a delete overlapped the read: read this slab again
      }
      if (found && !fixed<F>(slab_hash_fix::delete_cas_found_pair)) {
        // As printed (lines 58-60): the source lane stores DELETED_KEY at
        // its own lane's word of the slab, whatever slot holds the key, and
        // the operation ends. Result (the paper's DELETE returns none): map,
        // removed; multimap, the value word next to the found key.
        const uint32_t at = static_cast<uint32_t>(core::lowest_lane(found));
        if (t.lane() == src) {
          if (guarded) guard_enter(t, words);
          t.store(&words[src], kDeletedKey, core::order::weak, core::scope::gpu);
          if (guarded) guard_leave<F>(t, words);
        }
        const uint32_t value = t.shfl(value_of(mine), at + 1);
        if (!multi) return {core::op_status::done, ResultKind::Bool, 1};
        return {core::op_status::done, ResultKind::Value, value};
      }
      if (found) {
        const uint32_t at = static_cast<uint32_t>(core::lowest_lane(found));
        bool removed = false;
        uint32_t value = 0;
        if (t.lane() == at) {
          uint64_t* slot = pair_at(words, at);
          if (guarded) guard_enter(t, words);
          if (multi && mutant_of<F>() == slab_hash_mutant::delete_by_exchange) {
            // The bug: swap EMPTY in without checking that the slot still
            // holds the pair seen, so a pair inserted meanwhile is lost.
            t.exchange(slot, kEmptyPair, core::order::relaxed, core::scope::gpu);
            removed = true;
            value = t.load(&words[at + 1], core::order::relaxed, core::scope::gpu);
          } else {
            // Fix (paper line 59 writes DELETED_KEY at the *source* lane's
            // slot, and a multimap delete must reset the whole pair): CAS
            // the whole 64-bit pair seen (this lane's own read, whose key
            // is k) to a tombstone (map) or to EMPTY (multimap, the slot is
            // reused).
            const uint64_t now = multi ? kEmptyPair : pair(kDeletedKey, kEmptyValue);
            removed = t.cas(slot, mine, now, core::order::relaxed, core::scope::gpu) == mine;
            value = value_of(mine);
          }
          if (guarded) guard_leave<F>(t, words);
        }
        if (t.ballot(removed)) {
          if (!multi) return {core::op_status::done, ResultKind::Bool, 1};
          return {core::op_status::done, ResultKind::Value, t.shfl(value, at)};
        }
        if (!retries.again()) return {core::op_status::gave_up};
        continue;  // lost a race on that slot: read this slab again
      }
      const uint32_t link = t.shfl(value_of(mine), kAddressLane);
      // Line 65 clears every lane's is_active; ours ends only the source's
      // operation (delete_ends_source_only: the driver advances only its queue).
      if (link == slab_alloc::kEmptyPointer)
        return multi ? core::op_result{core::op_status::done, ResultKind::Absent, 0}
                     : core::op_result{core::op_status::done, ResultKind::Bool, 0};
      if (!follow<F>(t, words, link, hops)) return {core::op_status::failed};
    }
  }

  // Map mode: key and value are every lane's, and the lane of the chosen
  // slot CASes against its own read of the pair. Multimap mode: they are
  // lane src's (the owner), which CASes the chosen EMPTY slot from
  // EMPTY_PAIR (a slot whose key is EMPTY holds EMPTY_PAIR: every write of
  // a pair is whole). my_key: this lane's own pending key (the printed
  // myKey of line 32).
  template <int F, class Team>
  WC_HD core::op_result insert(Team& t, uint32_t key, uint32_t value, uint32_t bucket, uint32_t src,
                               lane_state& alloc_state, uint32_t my_key) const {
    const bool multi = mode_of<F>() == slab_hash_mode::multimap;
    // Line 32 compares each lane's word with its own myKey; the fix
    // compare_source_key, with the source's key (broadcast).
    const uint32_t compared = fixed<F>(slab_hash_fix::compare_source_key) ? key : my_key;
    // Line 35 CASes from EMPTY_PAIR even where the slot holds the key (a
    // REPLACE of a present key then fails forever); the fix
    // replace_cas_seen_pair (map) CASes from the pair there, read whole by
    // the slot's lane.
    const bool cas_seen = !multi && fixed<F>(slab_hash_fix::replace_cas_seen_pair);
    uint32_t* words = base_slabs + size_t(bucket) * 32;  // the base slab, then the list's
    core::bounded_spin<Team> retries(t, words);
    uint32_t hops = 0;
    for (;;) {
      const uint64_t mine = read_slab<F>(t, words, false);
      const uint32_t read = key_of(mine);  // the pair's key (lanes 2j and 2j + 1 alike)
      // Map: the key itself (to replace its value) or the first EMPTY slot.
      // Multimap: the first EMPTY slot.
      const bool wanted = read == kEmptyKey || (!multi && read == compared) ||
                          (!multi && mutant_of<F>() == slab_hash_mutant::slab_local_uniqueness && read == kDeletedKey);
      uint32_t candidates = t.ballot(wanted) & kKeyLanes;
      bool done = false;
      while (candidates && !done) {
        const uint32_t at = static_cast<uint32_t>(core::lowest_lane(candidates));
        bool ok = false;
        if (cas_seen ? t.lane() == at : t.lane() == src) {
          const uint64_t expected = cas_seen ? mine : kEmptyPair;
          ok = t.cas(pair_at(words, at), expected, pair(key, value), core::order::relaxed, core::scope::gpu) == expected;
        }
        done = t.ballot(ok) != 0;
        if (done || mutant_of<F>() != slab_hash_mutant::no_reread_after_failed_cas) break;
        candidates &= candidates - 1;  // the bug: on to the next lane of a stale read
      }
      if (done) return {core::op_status::done, ResultKind::None, 0};
      if (candidates) {  // lost the slot to another warp: read this slab again
        if (!retries.again()) return {core::op_status::gave_up};
        continue;
      }
      const uint32_t after = t.shfl(value_of(mine), kAddressLane);
      if (after != slab_alloc::kEmptyPointer) {
        if (!follow<F>(t, words, after, hops)) return {core::op_status::failed};
        continue;
      }
      // The list is full: link a new slab, then read this slab again.
      if (!link_fresh_slab<F>(t, alloc_state, words, kAddressLane)) return {core::op_status::failed};
    }
  }
};

// The slab hash with its mode fixed at compile time and no planted bug
// (the GPU's bulk benchmark; tests may plant one): the same members,
// instantiated with F.
// Launch: 0 (any operation), slab_hash::kReadOnlyLaunch (searches only,
// with no writer beside the launch: the caller's promise) or
// slab_hash::kInsertOnlyLaunch (inserts only), or (tests, and the
// benchmark's --guard off) slab_hash::kWithoutDeleteGuard, or (the
// benchmark's --guard-order acquire, and tests) slab_hash::kGuardAcquireLoads,
// the delete guard's read side by acquire loads. Tile: the lanes of a tile
// when the bulk driver's rounds are served by tiles (serve_round): 8 (four
// operations a warp step, the fastest on an H100: bench/RESULTS.md, "Slab
// hash", issue 16 round 3) or 16 (two); 0 serves one operation at a time through
// serve() (the benchmark's side-by-side baseline).
template <slab_hash_mode M, int Launch = 0, uint32_t Tile = 8>
struct slab_hash_fixed {
  slab_hash table;
  using lane_op = slab_hash::lane_op;
  using lane_state = slab_hash::lane_state;
  static_assert((Launch & ~(slab_hash::kWithoutDeleteGuard | slab_hash::kGuardAcquireLoads)) == 0 ||
                Launch == slab_hash::kReadOnlyLaunch ||
                Launch == slab_hash::kInsertOnlyLaunch);
  static_assert(Tile == 0 || Tile == 8 || Tile == 16);
  static constexpr int kFlags = static_cast<int>(M) | Launch | (Tile == 8 ? slab_hash::kQuarterTiles : 0);
  WC_HD lane_op prepare(OpKind kind, uint32_t key, uint32_t value) const { return table.prepare(kind, key, value); }
  template <class Team>
  WC_HD core::op_result serve(Team& t, const lane_op& mine, uint32_t src, lane_state& alloc_state) const {
    return table.template serve<kFlags>(t, mine, src, alloc_state);
  }
  template <class Team>
    requires(Tile != 0)
  WC_HD core::op_result serve_round(Team& t, const lane_op& mine, bool pending, lane_state& alloc_state) const {
    return table.template serve_round<kFlags>(t, mine, pending, alloc_state);
  }
};

}  // namespace warpcheck::structures

#include "structures/slab_hash/detail/tiled_round.hpp"
