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

std::string describe_config(const SlabHashConfig& c, const sim::SimConfig& s);
SlabHashRun run_slab_hash_sim(const SlabHashConfig& c, const sim::SimConfig& sim);

}  // namespace warpcheck
