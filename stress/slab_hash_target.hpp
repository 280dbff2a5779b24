// The slab hash as a stress target on the simulator: one seeded run,
// recorded, with its quiescent invariants.
#pragma once
#include <string>
#include <vector>

#include "stress/sim_harness.hpp"
#include "stress/slab_hash_config.hpp"

namespace warpcheck {

struct SlabHashRun {
  TargetRun run;
  std::vector<std::string> invariant_violations;  // checked when the run completed
};

// Registers the table's memory with the simulator's shadow state: slabs
// (never allocated until SlabAlloc hands them out), base slabs, and bitmaps
// (named in reports).
void register_shadow_pools(sim::Simulator& s, SlabHashMemory& memory, const SlabHashConfig& c);

std::string describe_config(const SlabHashConfig& c, const sim::SimConfig& s);
// One run of `ops` (teams x 32 x ops_per_lane) under sim's schedule; the
// hash function comes from sim.seed.
SlabHashRun run_slab_hash_sim(const SlabHashConfig& c, const sim::SimConfig& sim, const std::vector<core::workload_op>& ops);
// The same with the Thrust workload of sim.seed.
SlabHashRun run_slab_hash_sim(const SlabHashConfig& c, const sim::SimConfig& sim);

}  // namespace warpcheck
