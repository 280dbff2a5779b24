// The GPU-friendly skiplist's memory (Moscovici, Cohen, Petrank, "A
// GPU-Friendly Skiplist Algorithm", PACT 2017, and Moscovici's thesis,
// Technion 2017, section 4.1): levels of chunked lists over a pool of
// chunks addressed by 32-bit indexes.
//
// A chunk is N 64-bit entries, N the chunk size (32, or 16): entries
// 0..N-3 are DATA (key in the low 32 bits, value in the high 32), sorted,
// EMPTY (key and value all ones, "infinity") filling the tail; entry N-2 is
// NEXT {max key (low), next chunk (high)}, written with one 64-bit store;
// entry N-1 is LOCK. Lane i of a team reads entry i (lanes >= N read
// nothing). In upper levels a DATA value is the chunk in the level below.
//
// The LOCK word: owner team + 1 in the low 32 bits (0: free; ZOMBIE marks
// a chunk merged away; FRESH, all ones, a chunk just allocated, locked by
// its allocator), and a version in the high 32 bits that every unlock
// increments with the validated-absent fix, which reads it as a sequence
// lock (as printed, an unlock writes "unlocked" and the version stays 0).
//
// Keys: 0 is minus infinity (the first chunk of every level holds it),
// 0xFFFFFFFF infinity; structure keys are workload keys + 1.
#pragma once
#include <cstdint>

#include "structures/core/config.hpp"

namespace warpcheck::structures {

namespace gfsl_layout {
inline constexpr uint32_t kMaxChunk = 32;          // entries a chunk, at most (a warp's lanes)
inline constexpr uint32_t kEmptyKey = 0xFFFFFFFFu;  // infinity
inline constexpr uint32_t kNegInfKey = 0;
inline constexpr uint32_t kNil = 0xFFFFFFFFu;       // no next chunk (the last chunk of a level)
inline constexpr uint64_t kEmptyEntry = ~uint64_t(0);
inline constexpr uint32_t kZombieOwner = 0xFFFFFFFEu;
inline constexpr uint32_t kFreshOwner = 0xFFFFFFFFu;
inline constexpr uint64_t kUnlocked = 0;
inline constexpr int64_t kMaxKey = int64_t(kEmptyKey) - 2;  // the largest workload key (+1 must stay below infinity)

WC_HD WC_FORCE_INLINE uint32_t key_of(uint64_t e) { return static_cast<uint32_t>(e); }
WC_HD WC_FORCE_INLINE uint32_t value_of(uint64_t e) { return static_cast<uint32_t>(e >> 32); }
WC_HD WC_FORCE_INLINE uint64_t entry(uint32_t key, uint32_t value) { return uint64_t(value) << 32 | key; }
WC_HD WC_FORCE_INLINE uint32_t owner_of(uint64_t lock) { return static_cast<uint32_t>(lock); }
WC_HD WC_FORCE_INLINE uint32_t version_of(uint64_t lock) { return static_cast<uint32_t>(lock >> 32); }
WC_HD WC_FORCE_INLINE uint64_t lock_word(uint32_t version, uint32_t owner) { return uint64_t(version) << 32 | owner; }
}  // namespace gfsl_layout

// Corrections of the printed pseudocode, one bit each (0: as printed).
// Each is explained where it is applied (structures/gfsl/detail/).
namespace gfsl_fix {
inline constexpr uint32_t unlock_next_after_split = 1u << 0;   // preSplit's lock on the next chunk is released
inline constexpr uint32_t unlock_on_vanished_key = 1u << 1;    // Delete unlocks its bottom chunk when k is gone
inline constexpr uint32_t reread_next_after_split = 1u << 2;   // a merge reads the next chunk again after splitting it
inline constexpr uint32_t validated_absent = 1u << 3;          // "absent" only from a chunk read that no writer overlapped
inline constexpr uint32_t raise_locked_key = 1u << 4;          // a bottom split raises the key the team holds locked
inline constexpr uint32_t zombie_stays_locked = 1u << 5;       // removeFromChunk's last unlock leaves the zombie mark
inline constexpr uint32_t sync_lanes_between_writes = 1u << 6; // __syncwarp where the printed code relies on lockstep
inline constexpr uint32_t acquire_reads = 1u << 7;             // chunk and head reads, the lock CAS: acquire
inline constexpr uint32_t release_writes = 1u << 8;            // unlock, links, zombie marks, head updates: release
inline constexpr uint32_t down_ptr_to_found_chunk = 1u << 9;   // updateDownPtr points at the chunk the walk found
inline constexpr uint32_t unlock_last_chunk = 1u << 10;        // removeFromChunk unlocks the last chunk of a level it removed from
inline constexpr uint32_t kAll = (1u << 11) - 1;
}  // namespace gfsl_fix

// Planted bugs, one switch each (stress/gfsl/adapter.cpp says what each
// breaks and which oracle should catch it).
enum class gfsl_mutant : uint8_t {
  none,
  no_zombie_skip,          // traversals take a zombie's contents as a live chunk's
  zombie_before_copy,      // a merge marks the zombie before copying its keys into the next chunk
  unlock_erases_zombie,    // unlocking a chunk just marked a zombie clears the mark
  link_before_copy,        // a split links the new chunk before copying into it
  empty_before_link,       // a split empties the moved entries before the NEXT write
  unlock_without_release,  // an unlock is a relaxed store (no release): the chunk's writes can become visible after it
  skip_down_ptr_update,    // no updateDownPtrs after a merge
};

}  // namespace warpcheck::structures
