// The generalized heap of Chen, Hua, Huang, Bierema, Zhang and Zhang
// ("Accelerating Concurrent Heap on GPUs"): its memory, its variants and
// planted bugs, and the arithmetic of its nodes. The operations are in
// detail/ (td_heap.hpp, bu_heap.hpp) and generalized_heap.hpp runs them.
//
// A node holds k keys, sorted (a batch); node i (1-based) has children 2i
// and 2i+1. The generalized heap property: every key of a child is at least
// every key of its parent. Keys not yet in a node are in the partial buffer
// (fewer than k, sorted, all at least the root's largest), under the root's
// lock. An empty slot holds 0xFFFFFFFF (the paper's MAX_VALUE), so keys
// must stay below it. `last` counts the nodes in use (the paper's
// lastelem); node_of(n) is where the n-th node lives (bit reversal within
// its level when asked for, so consecutive inserts take disjoint paths).
#pragma once
#include <cstdint>

#include "structures/core/config.hpp"

namespace warpcheck::structures {

enum class heap_variant : uint8_t {
  td,  // top-down insert, top-down delete (Fig. 10)
  bu,  // bottom-up insert, top-down delete (Fig. 12)
};

// The multi-state node lock's states (Fig. 9). TARGET and MARKED belong to
// the top-down heap, INSHOLD and DELMOD to the bottom-up one; they share
// the numbers.
namespace node_state {
inline constexpr uint32_t avail = 0;
inline constexpr uint32_t inuse = 1;
inline constexpr uint32_t target = 2;   // TD: an insert's target, not yet filled
inline constexpr uint32_t marked = 3;   // TD: a delete wants the target's keys
inline constexpr uint32_t inshold = 2;  // BU: an insert parked its batch here
inline constexpr uint32_t delmod = 3;   // BU: a delete modified a parked batch
}  // namespace node_state

// Corrections of the paper's variants, one bit each: each finding of the
// framework (td_heap.hpp, bu_heap.hpp) is fixed by its own switch, so a
// finding can be reproduced with the others fixed. No bit is the pseudocode
// as printed; the "-fixed" variants set all of a variant's bits
// (docs/papers/heap.md audits every printed line).
namespace heap_fix {
inline constexpr uint32_t hold_target_parent = 1u << 0;     // TD F1: keep the target's parent until the target is written
inline constexpr uint32_t release_marked_target = 1u << 1;  // TD F2: lines 24-25 release the MARKED target, not the root
inline constexpr uint32_t take_parked_last = 1u << 2;       // BU B1: a delete takes a parked last node; its insert stops
inline constexpr uint32_t wait_on_delmod_parent = 1u << 3;  // BU B2: an insert waits on a DELMOD parent instead of stopping
inline constexpr uint32_t checked_trylock = 1u << 4;        // BU B3: MS_TRYLOCK(x, state(x), INUSE) retries a failed CAS
inline constexpr uint32_t phase_gate = 1u << 5;             // BU: inserts and deletes never overlap (phase_gate.hpp)
inline constexpr uint32_t empty_taken_buffer = 1u << 6;     // both, DEL lines 3-4: the partial buffer taken is emptied
inline constexpr uint32_t lock_acquire_release = 1u << 7;   // both: lock CASes acquire, unlock CASes release, state() acquires
inline constexpr uint32_t one_node_delete = 1u << 8;        // both: a delete of the only node stops (Fig. 4(c) line 5)
inline constexpr uint32_t lock_target_as_target = 1u << 9;  // TD INS line 13: the target is locked AVAIL -> TARGET
inline constexpr uint32_t mark_took_on_target = 1u << 10;   // TD DEL line 10: the mark took when MS_TRYLOCK found TARGET
inline constexpr uint32_t descent_restores_avail = 1u << 11;// BU DEL line 13: the root is given back AVAIL (cstate = AVAIL)
inline constexpr uint32_t both_fixed = empty_taken_buffer | lock_acquire_release | one_node_delete;
inline constexpr uint32_t td_fixed =
    hold_target_parent | release_marked_target | lock_target_as_target | mark_took_on_target | both_fixed;  // --variant td-fixed
inline constexpr uint32_t bu_fixed = take_parked_last | wait_on_delmod_parent | checked_trylock | phase_gate |
                                     descent_restores_avail | both_fixed;  // --variant bu-fixed
}  // namespace heap_fix

// Planted bugs, one switch each (see stress/heap/config.cpp for what each
// breaks and which oracle should catch it).
enum class heap_mutant : uint8_t {
  none,
  early_root_release,  // delete releases the root before the root holds the smallest remaining keys
  skip_partial_merge,  // delete refills the root without merging it with the partial buffer
  no_marked_wait,      // TD: a delete that marked the target does not wait for the insert's keys
  ignore_parked_parent,// BU: an insert merges into a parent another insert has parked, instead of waiting
  relaxed_unlock,      // MS_UNLOCK's CAS has no release: the node's keys may reach the next holder after the lock does
};

struct generalized_heap {
  uint32_t* keys = nullptr;          // (nodes + 1) * k: node i at keys + i * k (node 0 unused)
  uint32_t* states = nullptr;        // nodes + 1: the multi-state locks
  uint32_t* partial = nullptr;       // k: the partial buffer
  uint32_t* partial_size = nullptr;  // 1: keys in it (under the root's lock)
  uint32_t* last = nullptr;          // 1: nodes in use (under the root's lock)
  uint32_t* gate = nullptr;          // 1: the phase gate (heap_fix::phase_gate only)
  uint32_t k = 4;                    // keys a node: a power of two
  uint32_t capacity = 0;             // nodes that may hold keys
  uint32_t nodes = 0;                // node slots (every child of a node up to capacity exists)
  heap_variant variant = heap_variant::td;
  uint32_t fixes = 0;         // heap_fix bits: corrections of the paper's pseudocode (0: as printed)
  bool bit_reversal = true;   // target selection by bit-reversed position within a level
  heap_mutant mutant = heap_mutant::none;

  static constexpr uint32_t kEmptyKey = 0xFFFFFFFFu;

  // Node slots needed for `capacity` nodes: the levels that hold them and
  // one more (their children, always empty), so a descent never leaves the array.
  WC_HD static uint32_t node_slots(uint32_t capacity) {
    uint32_t levels = 1;
    while ((uint64_t(1) << levels) - 1 < capacity) ++levels;
    return (uint32_t(1) << (levels + 1)) - 1;
  }

  WC_HD bool fixed(uint32_t fix) const { return (fixes & fix) != 0; }
  WC_HD uint32_t* node(uint32_t i) const { return keys + size_t(i) * k; }
  WC_HD uint32_t* state(uint32_t i) const { return states + i; }

  // Where the n-th node (1-based) lives: level d = floor(log2 n), position
  // n - 2^d, bit-reversed within the level when asked.
  WC_HD uint32_t node_of(uint32_t n) const {
    if (!bit_reversal || n < 2) return n;
    uint32_t d = 0;
    while ((n >> (d + 1)) != 0) ++d;
    const uint32_t offset = n - (uint32_t(1) << d);
    uint32_t reversed = 0;
    for (uint32_t b = 0; b < d; ++b) reversed |= ((offset >> b) & 1u) << (d - 1 - b);
    return (uint32_t(1) << d) + reversed;
  }

  // The team's scratch memory (a block's shared memory on the GPU): 6k words.
  static constexpr uint32_t kScratchBatches = 6;
  struct scratch {
    uint32_t* items;  // k: the batch an operation carries (an insert's keys, a delete's result)
    uint32_t* a;      // k: a node's keys, staged
    uint32_t* b;      // k: another node's keys, staged
    uint32_t* merged; // 2k: a merge's output
    uint32_t* spare;  // k: a second batch (a delete's result while it refills)
  };
  WC_HD scratch carve(uint32_t* words) const {
    return {words, words + k, words + 2 * k, words + 3 * k, words + 5 * k};
  }
};

}  // namespace warpcheck::structures
