// The slab hash's run configuration, memory and runs on the simulator and
// real threads (the GPU's in gpu.hpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "stress/harness/sim_harness.hpp"
#include "stress/seam/structure_memory.hpp"
#include "stress/seam/workload.hpp"
#include "structures/slab_hash/slab_hash.hpp"

namespace warpcheck {

struct SlabHashConfig : WarpWorkload {  // teams are warps
  uint32_t buckets = 1;
  structures::slab_hash_mode mode = structures::slab_hash_mode::map;
  structures::slab_hash_mutant mutant = structures::slab_hash_mutant::none;
  uint32_t fixes = structures::slab_hash_fix::kAll;  // --variant and --fixes
  structures::slab_guard_order guard_order = structures::slab_guard_order::fence;  // --guard-order
  uint32_t super_blocks = 1, blocks_per_super = 2;  // SlabAlloc: 1,024 slabs a memory block
  uint32_t log_capacity = 0;                         // records per team; 0: exactly enough
};

// Throws std::invalid_argument for an impossible configuration.
void validate(const SlabHashConfig& c);
ModelId slab_hash_model(const SlabHashConfig& c);  // map or multimap
// The operations a mix's weights stand for in the mode (upsert or insert, erase, find).
OpKinds slab_hash_op_kinds(structures::slab_hash_mode mode);
WorkloadShape slab_hash_shape(const SlabHashConfig& c);

// Base slabs, the SlabAlloc pool (never allocated until handed out) and its bitmaps.
MemoryLayout slab_hash_layout(const SlabHashConfig& c);
// The structure over a table's arrays (host or device memory); the hash
// function's a and b come from the seed.
structures::slab_hash slab_hash_view(const SlabHashConfig& c, uint64_t seed, ArrayPointers arrays);

// Its quiescent invariants: structures/slab_hash/slab_hash_invariants.hpp.

// One run of `ops` (teams x 32 x ops_per_lane) under sim's schedule; the
// hash function comes from sim.seed.
CheckedRun run_slab_hash_sim(const SlabHashConfig& c, const sim::SimConfig& sim, const std::vector<core::workload_op>& ops);
// The same with the workload of sim.seed.
CheckedRun run_slab_hash_sim(const SlabHashConfig& c, const sim::SimConfig& sim);

}  // namespace warpcheck
