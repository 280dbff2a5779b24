// The sorted-array set's run configuration, memory and runs on the
// simulator and real threads (the GPU's in gpu.hpp).
#pragma once
#include <cstdint>
#include <vector>

#include "stress/harness/sim_harness.hpp"
#include "stress/seam/structure_memory.hpp"
#include "stress/seam/workload.hpp"
#include "structures/sorted_set/sorted_set.hpp"

namespace warpcheck {

struct SortedSetConfig : WarpWorkload {  // teams are warps
  uint32_t buckets = 1;
  structures::sorted_set_mutant mutant = structures::sorted_set_mutant::none;
  uint32_t log_capacity = 0;  // records per team; 0: exactly enough
};

// Throws std::invalid_argument for an impossible configuration.
void validate(const SortedSetConfig& c);
WorkloadShape sorted_set_shape(const SortedSetConfig& c);

// Locks, sizes and keys of every bucket.
MemoryLayout sorted_set_layout(const SortedSetConfig& c);
structures::sorted_set sorted_set_view(const SortedSetConfig& c, ArrayPointers arrays);

// One run of `ops` (teams x 32 x ops_per_lane) under sim's schedule.
TargetRun run_sorted_set_sim(const SortedSetConfig& c, const sim::SimConfig& sim, const std::vector<core::workload_op>& ops);
// The same with the workload of sim.seed.
TargetRun run_sorted_set_sim(const SortedSetConfig& c, const sim::SimConfig& sim);

}  // namespace warpcheck
