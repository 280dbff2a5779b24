// The sorted-array set as a stress target: its configuration, its memory,
// and one seeded run on the simulator.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "stress/sim_harness.hpp"
#include "stress/workload.hpp"
#include "structures/sorted_array_set/sorted_array_set.hpp"

namespace warpcheck {

struct SortedSetConfig {
  uint32_t teams = 2;         // warps
  uint32_t ops_per_lane = 2;
  int64_t keys = 16;          // keys in [0, keys)
  uint32_t buckets = 1;
  OpMix mix;
  structures::sorted_set_mutant mutant = structures::sorted_set_mutant::none;
  uint32_t log_capacity = 0;  // records per team; 0: exactly enough
};

// Throws std::invalid_argument for an impossible configuration.
void validate(const SortedSetConfig& c);

struct MutantInfo {
  std::string name, breaks;
};
const std::vector<MutantInfo>& sorted_set_mutants();
structures::sorted_set_mutant parse_sorted_set_mutant(const std::string& name);  // throws invalid_argument

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

// One run: the workload and the schedule both come from sim.seed.
TargetRun run_sorted_set_sim(const SortedSetConfig& c, const sim::SimConfig& sim);

}  // namespace warpcheck
