// Stadium hashing (Khorasani, Belviranli, Gupta, Bhuyan, "Stadium Hashing:
// Scalable and Flexible Hashing on GPUs", PACT 2015), written once for the
// GPU and the simulator: a table of buckets (in GPU memory, or out of core
// in pinned, mapped host memory) beside a ticket board in GPU memory, one
// ticket a bucket (detail/ticket_board.hpp), a prime table size and double
// hashing (detail/hashing.hpp), keys and values of configurable size
// (detail/buckets.hpp).
//
// Operations (the multimap model: inserts do not look for duplicates):
//   INSERT(k, v)  reserves an available ticket on k's probe chain, writes
//                 the info bits and the pair, then sets the access bit;
//                 returns nothing
//   FIND(k)       a value of k, or absent; tickets are read first
//                 (available: absent, info mismatch: rehash), the table
//                 only when the info bits match
//   ERASE(k)      frees the ticket of one pair of k, returning its value,
//                 or absent
// Each is a sequence of attempts, one probe of one bucket each, so that a
// thread can run it to the end (Stash, detail/stash.hpp) or a warp can set
// it aside between attempts (clStash, detail/clstash.hpp).
//
// The access bit (section III-B, "Support for mixed operation
// concurrency"): an insert clears it with the availability bit and sets it
// after a fence once the pair is written; a retrieval or delete that meets
// a ticket whose insert is still writing either ignores it (policy ignore:
// the paper requires a barrier between an insert and a later retrieval of
// its key) or waits for the bit (policy wait).
//
// `variant paper` is the pseudocode and text as printed; each departure
// from it is a named fix (stadium_fix), documented where it is made in
// detail/operations.hpp, detail/clstash.hpp and detail/hashing.hpp, and
// audited line by line in docs/papers/stadium.md.
#pragma once
#include <cstdint>

#include "structures/core/workload_op.hpp"
#include "structures/stadium/detail/buckets.hpp"
#include "structures/stadium/detail/ticket_board.hpp"

namespace warpcheck::structures {

namespace stadium_fix {
inline constexpr uint32_t reserve_by_cas = 1;     // S1: a failed reservation clears a taken ticket's access bit
inline constexpr uint32_t tombstones = 2;         // S2: lookups stop at never-used tickets, not after N probes
inline constexpr uint32_t claim_before_free = 4;  // S3: a delete frees a ticket it found, not one it holds
inline constexpr uint32_t claim_to_read = 8;      // S4: a retrieval reads a bucket that is freed and taken meanwhile
inline constexpr uint32_t push_above_queue = 16;  // S5: clStash pushes unfinished jobs over queued ones (Figure 12, line 25)
inline constexpr uint32_t acquire_ticket_load = 32;  // S6: Figure 10, line 4 is a plain load: no acquire of the pair
inline constexpr uint32_t release_free_acquire_reserve = 64;  // S7: the free and the reservation order nothing
inline constexpr uint32_t relaxed_table_accesses = 128;       // S8: the bucket's key and value are plain accesses
inline constexpr uint32_t syncwarp_around_queue = 256;        // S9: clStash's queue ordered by lockstep only
inline constexpr uint32_t rehash_in_64_bits = 512;            // S10: Figure 5, line 13's 32-bit sum wraps past 2^31 buckets
inline constexpr uint32_t kAll = 1023;
}  // namespace stadium_fix

enum class stadium_mutant : uint8_t {
  none,
  plain_ticket_stores,         // the info bits and the access bit written by a load and a store, not an atomic
  pair_before_reserve,         // an insert writes its pair into the bucket before it reserves the ticket
  missing_fence_device_table,  // no __threadfence() between the pair's stores and the access bit (table in GPU memory)
  missing_fence_host_table,    // no __threadfence_system() there (table in host memory)
  torn_wide_pair,              // retrievals take a ticket whose insert is still writing (no look at the access bit)
  delete_without_recheck,      // a delete frees the ticket it claimed without reading the bucket's key again
  queue_wrap_loses_job,        // clStash pushes a 33rd job: the queue index wraps onto the oldest one
  gpu_fence_for_host_table,    // __threadfence() where the host table needs __threadfence_system(): no CPU thread is told
};

enum class stadium_access : uint8_t { ignore, wait };
enum class stadium_kernel : uint8_t { stash, clstash, hybrid };

// One operation's probing state: a Stash thread's registers, or an entry of
// a clStash warp's queue (kWords 32-bit words there).
struct stadium_job {
  static constexpr uint32_t kWords = 6;
  uint32_t op = 0;     // the operation's index in its team's workload
  uint32_t pos = 0;    // the bucket to probe next
  uint32_t tries = 0;  // buckets probed
  uint32_t waits = 0;  // attempts spent waiting at pos (a bounded spin)
  uint32_t slot = 0;   // its record in the history log
  uint32_t found = 0;  // 1: the key was read at pos, the pair is to be claimed there
};

// One attempt's outcome.
struct stadium_attempt {
  enum outcome : uint8_t { done, again, failed, gave_up };
  outcome status = again;
  ResultKind kind = ResultKind::None;
  int64_t value = 0;
};

struct stadium_hash {
  stadium_detail::ticket_board board;
  stadium_detail::bucket_layout table;
  uint32_t buckets = 0;     // N, a prime
  bool host_table = false;  // the table in pinned, mapped host memory
  stadium_access access = stadium_access::wait;
  // Deletions mix with retrievals: then "the retrievals require further
  // iterations after rejecting a bucket" (section III-B), past available
  // tickets, as deletes do.
  bool deletes = true;
  uint32_t fixes = 0;       // stadium_fix bits (0: as printed)
  stadium_mutant mutant = stadium_mutant::none;

  WC_HD bool fixed(uint32_t fix) const { return (fixes & fix) != 0; }
  WC_HD bool planted(stadium_mutant m) const { return mutant == m; }
  // The scope of the table's accesses, and of the barrier that publishes them.
  WC_HD core::scope table_scope() const { return host_table ? core::scope::system : core::scope::gpu; }
  // The bucket's key and value: plain (weak) accesses as printed, relaxed with S8.
  WC_HD core::order table_order() const { return fixed(stadium_fix::relaxed_table_accesses) ? core::order::relaxed : core::order::weak; }

  WC_HD stadium_job start(const core::workload_op& op, uint32_t index) const {
    stadium_job j;
    j.op = index;
    j.pos = table.first_bucket(table.stored_key(op.key), buckets);
    return j;
  }
  // One attempt of `op` (its state in `j`), by one lane.
  template <class Team>
  WC_HD stadium_attempt attempt(Team& t, const core::workload_op& op, stadium_job& j) const;
};

}  // namespace warpcheck::structures

#include "structures/stadium/detail/operations.hpp"
