// The slab hash (Ashkiani, Farach-Colton, Owens, "A Dynamic Hash Table for
// the GPU", IPDPS 2018): B buckets, each a list of 128-byte slabs read by a
// warp with one coalesced load. Key-value mode: 15 pairs per slab, keys on
// even lanes 0..28, values on odd lanes 1..29, lane 30 unused, lane 31 the
// next slab's handle. Bucket of k: ((a k + b) mod p) mod B.
//
// Warp-cooperative work sharing (core::run_team_ops): every lane holds one
// operation; the warp serves them one at a time, lowest lane first.
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
//    none. (PCT found this at seed 2481; tests/test_slab_hash.cpp keeps the
//    race.) So multimap deletes bracket their CAS with a per-slab guard word
//    (lane 30, unused by pairs), and an absent answer is given only from
//    slab reads that the guard shows no delete overlapped: a snapshot.
#pragma once
#include <cstdint>

#include "structures/core/spin.hpp"
#include "structures/core/workload_op.hpp"
#include "structures/slab_hash/slab_alloc.hpp"

namespace warpcheck::structures {

enum class slab_hash_mode : uint8_t { map, multimap };

enum class slab_hash_mutant : uint8_t {
  none,
  slab_local_uniqueness,       // REPLACE reuses tombstones, checking uniqueness only within the slab
  delete_by_exchange,          // multimap DELETE swaps in EMPTY without comparing the pair it saw (ABA)
  torn_read,                   // SEARCH takes key and value from two separate 32-bit loads
  link_leak,                   // a losing link CAS keeps its slab allocated (leak)
  link_free_winner,            // a losing link CAS frees the winner's slab (use after free)
  no_reread_after_failed_cas,  // after a failed CAS, REPLACE/INSERT tries the next lane of its stale read
  unguarded_absent,            // multimap SEARCH/DELETE answer absent from a slab read no guard validated
};

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

  using lane_state = slab_alloc::warp_state;

  WC_HD uint32_t bucket_of(uint32_t key) const {
    return static_cast<uint32_t>(((uint64_t(hash_a) * key + hash_b) % kPrime) % buckets);
  }
  WC_HD uint32_t* slab_words(uint32_t bucket, uint32_t handle) const {
    return handle == slab_alloc::kEmptyPointer ? base_slabs + size_t(bucket) * 32 : alloc.slab(handle);
  }
  WC_HD static uint64_t pair(uint32_t key, uint32_t value) { return uint64_t(value) << 32 | key; }
  WC_HD static uint32_t key_of(uint64_t p) { return static_cast<uint32_t>(p); }
  WC_HD static uint32_t value_of(uint64_t p) { return static_cast<uint32_t>(p >> 32); }

  // Every lane calls with the same operation.
  template <class Team>
  WC_HD core::op_result apply(Team& t, const core::workload_op& op, lane_state& alloc_state) const {
    const uint32_t key = static_cast<uint32_t>(op.key);
    const uint32_t bucket = bucket_of(key);
    switch (op.kind) {
      case OpKind::Upsert:
      case OpKind::Insert: return insert(t, key, static_cast<uint32_t>(op.value), bucket, alloc_state);
      case OpKind::Erase: return erase(t, key, bucket);
      case OpKind::Find: return search(t, key, bucket);
      default:
        if (t.lane() == 0) t.fail("slab_hash: unsupported operation", nullptr);
        return {core::op_status::failed};
    }
  }

 private:
  static constexpr int kRetry = -2, kNext = -1;  // outcomes of one slab's step, besides "done"

  template <class Team>
  WC_HD static uint32_t read_slab(Team& t, const uint32_t* words) {
    return t.load(&words[t.lane()], core::order::relaxed, core::scope::gpu);  // one coalesced 128-byte read
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
  template <class Team>
  WC_HD static void guard_leave(Team& t, uint32_t* words) {
    t.fetch_add(&words[kGuardLane], 0xFFFF0001u, core::order::release, core::scope::gpu);  // c += 0xFFFF: one fewer, version + 1
  }
  // The guard as seen before a slab read (every lane loads it), or 0 in map mode.
  template <class Team>
  WC_HD uint32_t guard_before(Team& t, const uint32_t* words) const {
    return mode == slab_hash_mode::multimap ? t.load(&words[kGuardLane], core::order::acquire, core::scope::gpu) : 0u;
  }
  // True when the slab read between guard_before and now was a snapshot:
  // every lane saw one quiet guard word before its load and the same after
  // (a seqlock read: any delete overlapping a lane's load changed it).
  template <class Team>
  WC_HD static bool read_was_snapshot(Team& t, const uint32_t* words, uint32_t before) {
    t.fence(core::order::acq_rel, core::scope::gpu);
    const uint32_t after = t.load(&words[kGuardLane], core::order::relaxed, core::scope::gpu);
    const uint32_t first = t.shfl(before, 0);
    return t.all(before == first && after == first && guard_quiet(first));
  }
  WC_HD bool absent_needs_snapshot() const {
    return mode == slab_hash_mode::multimap && mutant != slab_hash_mutant::unguarded_absent;
  }

  // Follows a link, counting hops: a list longer than the allocator has
  // slabs is a cycle (a slab freed while linked, then linked again), and a
  // walk must not go round it forever. Returns false (fault reported) then.
  template <class Team>
  WC_HD bool follow(Team& t, uint32_t& next, uint32_t link, uint32_t& hops) const {
    next = link;
    if (++hops <= alloc.blocks() * slab_alloc::kSlabsPerBlock) return true;
    if (t.lane() == 0) t.fail("slab_hash: a slab list longer than the allocator's slabs (a cycle)", nullptr);
    return false;
  }

  template <class Team>
  WC_HD core::op_result search(Team& t, uint32_t key, uint32_t bucket) const {
    core::bounded_spin<Team> retries(t, slab_words(bucket, slab_alloc::kEmptyPointer));
    uint32_t next = slab_alloc::kEmptyPointer, hops = 0;  // the base slab
    for (;;) {
      uint32_t* words = slab_words(bucket, next);
      const uint32_t guard = guard_before(t, words);
      const uint32_t read = read_slab(t, words);
      // Fix: compare each lane's word with the source lane's key (the
      // broadcast `key`), not with each lane's own pending key.
      const uint32_t found = t.ballot(read == key) & kKeyLanes;
      if (!found && absent_needs_snapshot() && !read_was_snapshot(t, words, guard)) {
        if (!retries.again()) return {core::op_status::gave_up};
        continue;  // a delete overlapped the read: read this slab again
      }
      if (found) {
        // Fix: __ffs is 1-based; lowest_lane is 0-based.
        const uint32_t at = static_cast<uint32_t>(core::lowest_lane(found));
        uint32_t value;
        bool still = true;
        if (mutant == slab_hash_mutant::torn_read) {
          value = t.shfl(read, at + 1);  // the value word was read apart from the key word
        } else {
          // Fix: key and value were read by two lanes at two times, while
          // REPLACE writes them with one 64-bit CAS: read the pair again,
          // whole, and use it only if it still holds the key.
          uint64_t p = 0;
          if (t.lane() == at) p = t.load(pair_at(words, at), core::order::relaxed, core::scope::gpu);
          p = t.shfl(p, at);
          still = key_of(p) == key;
          value = value_of(p);
        }
        if (still) return {core::op_status::done, ResultKind::Value, value};
        if (!retries.again()) return {core::op_status::gave_up};
        continue;  // the pair changed under us: read this slab again
      }
      const uint32_t link = t.shfl(read, kAddressLane);
      if (link == slab_alloc::kEmptyPointer) return {core::op_status::done, ResultKind::Absent, 0};
      if (!follow(t, next, link, hops)) return {core::op_status::failed};
    }
  }

  template <class Team>
  WC_HD core::op_result erase(Team& t, uint32_t key, uint32_t bucket) const {
    const bool multi = mode == slab_hash_mode::multimap;
    core::bounded_spin<Team> retries(t, slab_words(bucket, slab_alloc::kEmptyPointer));
    uint32_t next = slab_alloc::kEmptyPointer, hops = 0;
    for (;;) {
      uint32_t* words = slab_words(bucket, next);
      const uint32_t guard = guard_before(t, words);
      const uint32_t read = read_slab(t, words);
      const uint32_t found = t.ballot(read == key) & kKeyLanes;
      if (!found && absent_needs_snapshot() && !read_was_snapshot(t, words, guard)) {
        if (!retries.again()) return {core::op_status::gave_up};
        continue;  // a delete overlapped the read: read this slab again
      }
      if (found) {
        const uint32_t at = static_cast<uint32_t>(core::lowest_lane(found));
        bool removed = false;
        uint32_t value = 0;
        if (t.lane() == at) {
          uint64_t* slot = pair_at(words, at);
          if (multi) guard_enter(t, words);
          if (multi && mutant == slab_hash_mutant::delete_by_exchange) {
            // The bug: swap EMPTY in without checking that the slot still
            // holds the pair seen, so a pair inserted meanwhile is lost.
            t.exchange(slot, kEmptyPair, core::order::relaxed, core::scope::gpu);
            removed = true;
            value = t.load(&words[at + 1], core::order::relaxed, core::scope::gpu);
          } else {
            // Fix (paper line 59 writes DELETED_KEY at the *source* lane's
            // slot, and a multimap delete must reset the whole pair): CAS
            // the whole 64-bit pair seen, comparing its key, to a tombstone
            // (map) or to EMPTY (multimap, the slot is reused).
            const uint64_t seen = t.load(slot, core::order::relaxed, core::scope::gpu);
            if (key_of(seen) == key) {
              const uint64_t now = multi ? kEmptyPair : pair(kDeletedKey, kEmptyValue);
              removed = t.cas(slot, seen, now, core::order::relaxed, core::scope::gpu) == seen;
              value = value_of(seen);
            }
          }
          if (multi) guard_leave(t, words);
        }
        if (t.shfl(removed, at)) {
          value = t.shfl(value, at);
          return multi ? core::op_result{core::op_status::done, ResultKind::Value, value}
                       : core::op_result{core::op_status::done, ResultKind::Bool, 1};
        }
        if (!retries.again()) return {core::op_status::gave_up};
        continue;  // lost a race on that slot: read this slab again
      }
      const uint32_t link = t.shfl(read, kAddressLane);
      if (link == slab_alloc::kEmptyPointer)
        return multi ? core::op_result{core::op_status::done, ResultKind::Absent, 0}
                     : core::op_result{core::op_status::done, ResultKind::Bool, 0};
      if (!follow(t, next, link, hops)) return {core::op_status::failed};
    }
  }

  template <class Team>
  WC_HD core::op_result insert(Team& t, uint32_t key, uint32_t value, uint32_t bucket, lane_state& alloc_state) const {
    const bool multi = mode == slab_hash_mode::multimap;
    core::bounded_spin<Team> retries(t, slab_words(bucket, slab_alloc::kEmptyPointer));
    uint32_t next = slab_alloc::kEmptyPointer, hops = 0;
    for (;;) {
      uint32_t* words = slab_words(bucket, next);
      const uint32_t read = read_slab(t, words);
      // Map: the key itself (to replace its value) or the first EMPTY slot.
      // Multimap: the first EMPTY slot.
      const bool wanted = read == kEmptyKey || (!multi && read == key) ||
                          (!multi && mutant == slab_hash_mutant::slab_local_uniqueness && read == kDeletedKey);
      uint32_t candidates = t.ballot(wanted) & kKeyLanes;
      bool done = false;
      while (candidates && !done) {
        const uint32_t at = static_cast<uint32_t>(core::lowest_lane(candidates));
        bool ok = false;
        if (t.lane() == at) {
          // Fix: the paper CASes against EMPTY_PAIR even when the slot holds
          // the key (a REPLACE of an existing key would fail forever).
          // Compare with the pair actually there, read whole.
          uint64_t* slot = pair_at(words, at);
          const uint64_t seen = t.load(slot, core::order::relaxed, core::scope::gpu);
          const uint32_t k = key_of(seen);
          const bool usable = k == kEmptyKey || (!multi && k == key) ||
                              (!multi && mutant == slab_hash_mutant::slab_local_uniqueness && k == kDeletedKey);
          if (usable) ok = t.cas(slot, seen, pair(key, value), core::order::relaxed, core::scope::gpu) == seen;
        }
        done = t.shfl(ok, at);
        if (done || mutant != slab_hash_mutant::no_reread_after_failed_cas) break;
        candidates &= candidates - 1;  // the bug: on to the next lane of a stale read
      }
      if (done) return {core::op_status::done, ResultKind::None, 0};
      if (candidates) {  // lost the slot to another warp: read this slab again
        if (!retries.again()) return {core::op_status::gave_up};
        continue;
      }
      const uint32_t after = t.shfl(read, kAddressLane);
      if (after != slab_alloc::kEmptyPointer) {
        if (!follow(t, next, after, hops)) return {core::op_status::failed};
        continue;
      }
      // The list is full: link a new slab, then read this slab again.
      const uint32_t fresh = alloc.allocate(t, alloc_state);
      if (fresh == slab_alloc::kEmptyPointer) {
        if (t.lane() == 0) t.fail("slab_hash: SlabAlloc exhausted: every memory block is full", nullptr);
        return {core::op_status::failed};
      }
      t.store(&alloc.slab(fresh)[t.lane()], kEmptyKey, core::order::weak, core::scope::gpu);  // not yet published
      t.sync();  // every lane's store before lane 31's release publishes the slab
      if (t.lane() == kAddressLane) {
        const uint32_t winner = t.cas(&words[kAddressLane], slab_alloc::kEmptyPointer, fresh, core::order::release, core::scope::gpu);
        if (winner != slab_alloc::kEmptyPointer) {
          // Another warp linked its slab first.
          if (mutant == slab_hash_mutant::link_free_winner) alloc.deallocate(t, winner);
          else if (mutant != slab_hash_mutant::link_leak) alloc.deallocate(t, fresh);
        }
      }
      t.sync();
    }
  }
};

}  // namespace warpcheck::structures
