// The GPU-friendly skiplist (GFSL; Moscovici, Cohen, Petrank, PACT 2017;
// Moscovici's thesis, Technion 2017, Algorithms 4.1-4.12), written once for
// the GPU, the simulator and real threads. A team is a warp; a chunk of N
// entries (32, or 16 with half the warp idle) is read by its first N lanes
// at once.
//
// Operations (the map model; structure keys are workload keys + 1):
//   INSERT(k, v)  true when k was absent and is now in (insert-if-absent)
//   DELETE(k)     true when k was present and is now gone
//   FIND(k)       k's value, or absent (the paper's Contains, with the value)
//
// Linearization points (the seeds give none; ours, stamped where they
// happen and recorded as hints):
//   INSERT true   the store that writes <k, v> into its bottom-level chunk
//   INSERT false  the load that saw k in a bottom-level chunk (searchSlow's,
//                 or the re-read under the bottom lock)
//   DELETE true   the store that removes k from its bottom chunk: the left
//                 shift's overwrite of k, or the ZOMBIE mark of a merge
//                 (k is the one key the merge does not copy)
//   DELETE false  the decision that k is absent (as FIND absent), or the
//                 re-read under the bottom lock that no longer sees k
//   FIND present  the load that saw k in a non-zombie bottom chunk
//   FIND absent   the load of the enclosing chunk's NEXT entry (its max)
//                 that ended the lateral walk; with the validated-absent
//                 fix, the second of the two LOCK loads around a re-read
//                 of the chunk (the chunk is unchanged between them)
// A chunk's DATA entries are read lane by lane (two 128-byte transactions
// for N = 32): an absent answer from a read that a shift crossed can miss a
// key present throughout. See gfsl_fix::validated_absent.
#pragma once
#include <cstdint>

#include "models/base/splitmix.hpp"  // detail/operations.hpp's mix_pair
#include "structures/core/spin.hpp"
#include "structures/core/workload_op.hpp"
#include "structures/gfsl/gfsl_layout.hpp"

namespace warpcheck::structures {

struct gfsl {
  uint64_t* pool = nullptr;          // pool_chunks * chunk entries
  uint32_t* heads = nullptr;         // kMaxChunk: the first chunk of each level
  uint32_t* level_chunks = nullptr;  // kMaxChunk: chunks in use at each level >= 1 (0: the level is empty)
  uint32_t* next_free = nullptr;     // the bump allocator's next chunk
  uint32_t pool_chunks = 0;
  uint32_t chunk = 32;               // N: entries a chunk, 32 or 16; also the most levels
  uint32_t fixes = 0;                // gfsl_fix bits
  gfsl_mutant mutant = gfsl_mutant::none;
  uint32_t raise_below = ~0u;        // a split raises a key when a hash of (team, split) is below this: p_chunk
  uint32_t validation_tries = 1024;  // validated-absent reads of a chunk before one under its lock (traversal.hpp)

  struct lane_state {
    uint32_t splits = 0;  // this team's splits so far: the raise decision's input
  };

  WC_HD bool fixed(uint32_t fix) const { return (fixes & fix) != 0; }
  WC_HD bool planted(gfsl_mutant m) const { return mutant == m; }
  WC_HD uint64_t* entry_at(uint32_t c, uint32_t i) const { return pool + size_t(c) * chunk + i; }
  WC_HD uint32_t levels() const { return chunk; }

  // Every lane of the team calls with the same operation.
  template <class Team>
  WC_HD core::op_result apply(Team& t, const core::workload_op& op, lane_state& state, const core::point_clock& clock) const;
  template <class Team>
  WC_HD core::op_result apply(Team& t, const core::workload_op& op, lane_state& state) const {
    return apply(t, op, state, core::point_clock{});
  }
};

}  // namespace warpcheck::structures

#include "structures/gfsl/detail/operations.hpp"
