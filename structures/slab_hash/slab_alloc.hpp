// SlabAlloc (Ashkiani, Farach-Colton, Owens, IPDPS 2018, section V): a
// warp-cooperative allocator of fixed 128-byte slabs.
//
// Super blocks of memory blocks of 1,024 slabs; each memory block has a
// 1,024-bit bitmap, held by a warp one 32-bit word per lane (lane i owns
// slabs 32i .. 32i+31). A warp allocates from its resident block: a ballot
// finds the lowest lane with a free slab, that lane sets its bit with one
// CAS, and a shuffle shares the 32-bit handle. When the resident block is
// full the warp moves to another (a hash of its id and attempt count), and
// after a few random probes sweeps the blocks in order: exhaustion is
// reported once every block was seen full, never an endless loop.
// Deallocation atomically clears the bit.
//
// Handles are 32 bits: unit (10) | memory block (14) | super block (8).
// Here all super blocks sit in one array (the paper's SlabAlloc-light
// addressing), so decoding a handle is arithmetic, no table lookup.
#pragma once
#include <cstdint>

#include "structures/core/team.hpp"

namespace warpcheck::structures {

struct slab_alloc {
  static constexpr uint32_t kWordsPerSlab = 32;
  static constexpr uint32_t kSlabsPerBlock = 1024;
  static constexpr uint32_t kEmptyPointer = 0xFFFFFFFFu;  // no slab
  static constexpr uint32_t kRandomProbes = 8;

  uint32_t* slabs = nullptr;    // super_blocks * blocks_per_super * 1024 slabs of 32 words
  uint32_t* bitmaps = nullptr;  // one 32-word bitmap per memory block
  uint32_t super_blocks = 1, blocks_per_super = 1;

  WC_HD uint32_t blocks() const { return super_blocks * blocks_per_super; }
  WC_HD static uint32_t handle(uint32_t block, uint32_t unit, uint32_t blocks_per_super) {
    return (block / blocks_per_super) << 24 | (block % blocks_per_super) << 10 | unit;
  }
  WC_HD uint32_t block_of(uint32_t h) const { return (h >> 24) * blocks_per_super + ((h >> 10) & 0x3FFF); }
  WC_HD static uint32_t unit_of(uint32_t h) { return h & 0x3FF; }
  WC_HD uint32_t* slab(uint32_t h) const {
    return slabs + (size_t(block_of(h)) * kSlabsPerBlock + unit_of(h)) * kWordsPerSlab;
  }

  // What one warp keeps between allocations: its resident block (kNone
  // before the first) and, per lane, that block's bitmap word as last seen
  // (two registers on the GPU).
  struct warp_state {
    static constexpr uint32_t kNone = 0xFFFFFFFFu;
    uint32_t resident = kNone;
    uint32_t word = 0;
  };

  // Every lane of the warp calls; all get the same handle, or kEmptyPointer
  // when every memory block is full (the caller reports it).
  template <class Team>
  WC_HD uint32_t allocate(Team& t, warp_state& s) const {
    if (s.resident == warp_state::kNone) load_resident(t, s, first_block(t.team_id()));
    uint32_t changes = 0;  // resident changes in this search for room
    for (;;) {
      const uint32_t lanes_with_room = t.ballot(s.word != 0xFFFFFFFFu);
      if (!lanes_with_room) {
        // Full: a few hashed probes, then every block in order, then give up.
        if (++changes > kRandomProbes + blocks()) return kEmptyPointer;
        const uint32_t next = changes <= kRandomProbes ? probe(t.team_id(), changes) : changes - kRandomProbes - 1;
        load_resident(t, s, next);
        continue;
      }
      const uint32_t src = static_cast<uint32_t>(core::lowest_lane(lanes_with_room));
      uint32_t got = kEmptyPointer;
      if (t.lane() == src) {
        const uint32_t bit = static_cast<uint32_t>(core::lowest_lane(~s.word));
        uint32_t* word = &bitmaps[size_t(s.resident) * 32 + src];
        const uint32_t seen = t.cas(word, s.word, s.word | (1u << bit), core::order::relaxed, core::scope::gpu);
        if (seen == s.word) {
          s.word |= 1u << bit;
          got = handle(s.resident, src * 32 + bit, blocks_per_super);
          t.shadow_mark(slab(got), core::unit_state::allocated);
        } else {
          s.word = seen;  // another warp allocated from this word: retry with what is there now
        }
      }
      got = t.shfl(got, src);
      if (got != kEmptyPointer) return got;
    }
  }

  // One lane calls. The shadow state turns freed before the bit clears, so
  // that no re-allocation can be marked over.
  template <class Team>
  WC_HD void deallocate(Team& t, uint32_t h) const {
    t.shadow_mark(slab(h), core::unit_state::freed);
    const uint32_t unit = unit_of(h);
    t.fetch_and(&bitmaps[size_t(block_of(h)) * 32 + unit / 32], ~(1u << (unit % 32)), core::order::release, core::scope::gpu);
  }

 private:
  WC_HD uint32_t first_block(uint32_t team) const { return probe(team, 0); }
  WC_HD uint32_t probe(uint32_t team, uint32_t attempt) const {
    uint32_t x = team * 0x9E3779B1u + attempt * 0x85EBCA77u;
    x ^= x >> 15;
    x *= 0x2C1B3C6Du;
    x ^= x >> 12;
    return x % blocks();
  }
  template <class Team>
  WC_HD void load_resident(Team& t, warp_state& s, uint32_t block) const {
    s.resident = block;
    s.word = t.load(&bitmaps[size_t(block) * 32 + t.lane()], core::order::relaxed, core::scope::gpu);  // one coalesced read
  }
};

}  // namespace warpcheck::structures
