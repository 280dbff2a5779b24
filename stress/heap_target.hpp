// The generalized heap as a stress target on the simulator: one seeded run
// of a workload (teams x ops_per_team operations, one queue a block),
// recorded, with the heap's quiescent invariants.
#pragma once
#include <string>
#include <vector>

#include "stress/heap_config.hpp"
#include "stress/sim_harness.hpp"

namespace warpcheck {

struct HeapRun {
  TargetRun run;
  std::vector<std::string> invariant_violations;  // checked when the run completed
};

std::string describe_config(const HeapConfig& c, const sim::SimConfig& s);

// One run of `ops` under sim's schedule (sim.teams = c.teams, sim.lanes = c.lanes).
HeapRun run_heap_sim(const HeapConfig& c, const sim::SimConfig& sim, const std::vector<core::workload_op>& ops);

}  // namespace warpcheck
