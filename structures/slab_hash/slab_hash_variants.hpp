// The slab hash's variants: its two modes, the corrections of the printed
// Figure 2 (one bit each) and the planted bugs. Apart from the algorithm
// (slab_hash.hpp) so that what selects a variant is read in one place.
#pragma once
#include <cstdint>

namespace warpcheck::structures {

enum class slab_hash_mode : uint8_t { map, multimap };

// Corrections of the printed Figure 2, one bit each (0: the line as
// printed). docs/papers/slab_hash.md audits every printed line; stress/
// slab_hash/adapter.cpp declares each fix with its finding.
namespace slab_hash_fix {
inline constexpr uint32_t compare_source_key = 1u << 0;       // line 32: lanes compare the source's key, not their own myKey
inline constexpr uint32_t replace_cas_seen_pair = 1u << 1;    // lines 34-36 (map): the slot's lane CASes from the pair it read, not EMPTY_PAIR
inline constexpr uint32_t delete_cas_found_pair = 1u << 2;    // lines 58-59: CAS the found slot's pair, not a store of DELETED_KEY at the source lane's word
inline constexpr uint32_t delete_ends_source_only = 1u << 3;  // line 65: only the source's operation ends
inline constexpr uint32_t value_from_key_load = 1u << 4;      // line 16: the value from the key's own 64-bit load, not the next lane's word
inline constexpr uint32_t delete_guard = 1u << 5;             // lines 20, 62 (multimap): absent only from a slab read no delete overlapped
inline constexpr uint32_t initialize_fresh_slab = 1u << 6;    // line 43: a new slab is written EMPTY (and the warp synced) before it is linked
inline constexpr uint32_t link_cas_release = 1u << 7;         // line 45: the link CAS is a release, not CUDA's relaxed atomicCAS
inline constexpr uint32_t relaxed_slab_loads = 1u << 8;       // line 7: ReadSlab's loads are ld.relaxed.gpu, not plain loads
inline constexpr uint32_t kAll = (1u << 9) - 1;
// ReadSlab reads each lane's 64-bit pair (lanes 2j and 2j + 1 both read
// pair j) when a fix needs a pair read whole; as printed, one 32-bit word a lane.
inline constexpr uint32_t kNeedPairs = replace_cas_seen_pair | delete_cas_found_pair | value_from_key_load;
}  // namespace slab_hash_fix

// How a multimap search or delete orders its slab loads before the delete
// guard's second load (the seqlock's read side, slab_hash.hpp): relaxed
// loads, then a fence.acq_rel (issue 29), or acquire loads and no fence
// (issue 32). Either makes each lane's second guard load follow its own
// slab load; neither is a printed line (the guard is the fix delete_guard).
enum class slab_guard_order : uint8_t { fence, acquire };

enum class slab_hash_mutant : uint8_t {
  none,
  slab_local_uniqueness,       // REPLACE reuses tombstones, checking uniqueness only within the slab
  delete_by_exchange,          // multimap DELETE swaps in EMPTY without comparing the pair it saw (ABA)
  torn_read,                   // SEARCH takes key and value from two separate 32-bit loads
  link_leak,                   // a losing link CAS keeps its slab allocated (leak)
  link_free_winner,            // a losing link CAS frees the winner's slab (use after free)
  no_reread_after_failed_cas,  // after a failed CAS, REPLACE/INSERT tries the next lane of its stale read
  guard_leave_without_sc_fence,  // a multimap DELETE releases the guard with no fence.sc after its removal (issue 29)
  guard_read_unordered,          // a guarded slab read: relaxed loads and no fence before the guard's second load
};

}  // namespace warpcheck::structures
