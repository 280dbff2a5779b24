// The sorted-array set as a stress target on the simulator: its memory and
// one seeded run.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "stress/sim_harness.hpp"
#include "stress/sorted_set_config.hpp"

namespace warpcheck {

// The run's configuration as a JSON object, for the history's metadata.
std::string describe_config(const SortedSetConfig& c, const sim::SimConfig& s);

// The buckets, locks and sizes of one run, in host memory.
struct SortedSetMemory {
  std::vector<uint32_t> locks, sizes;
  std::vector<int32_t> keys;
  explicit SortedSetMemory(uint32_t buckets);
  structures::sorted_array_set view(structures::sorted_set_mutant m);
  // Names the words in the simulator's reports ("bucket locks[0]").
  void name_in(sim::Simulator& s) const;
};

// One run of `ops` (teams x 32 x ops_per_lane) under sim's schedule.
TargetRun run_sorted_set_sim(const SortedSetConfig& c, const sim::SimConfig& sim, const std::vector<core::workload_op>& ops);
// The same with the Thrust workload of sim.seed.
TargetRun run_sorted_set_sim(const SortedSetConfig& c, const sim::SimConfig& sim);

}  // namespace warpcheck
