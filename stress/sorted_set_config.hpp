// The sorted-array set's stress configuration and mutants, shared by every
// back-end's harness (the GPU's included, so nothing host-only here).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

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

// The Thrust workload of a seed (insert, erase, contains on [0, keys)).
WorkloadSpec sorted_set_workload(const SortedSetConfig& c, uint64_t seed);

struct MutantInfo {
  std::string name, breaks;
};
const std::vector<MutantInfo>& sorted_set_mutants();
structures::sorted_set_mutant parse_sorted_set_mutant(const std::string& name);  // throws invalid_argument

}  // namespace warpcheck
