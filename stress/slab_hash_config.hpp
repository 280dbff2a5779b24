// The slab hash's stress configuration, memory and quiescent invariants,
// shared by every back-end's harness (the GPU's included: nothing
// simulator-only here).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "stress/workload.hpp"
#include "structures/slab_hash/slab_hash.hpp"

namespace warpcheck {

struct SlabHashConfig {
  uint32_t teams = 2;  // warps
  uint32_t ops_per_lane = 2;
  int64_t keys = 16;  // keys in [0, keys)
  uint32_t buckets = 1;
  OpMix mix;
  structures::slab_hash_mode mode = structures::slab_hash_mode::map;
  structures::slab_hash_mutant mutant = structures::slab_hash_mutant::none;
  uint32_t super_blocks = 1, blocks_per_super = 2;  // SlabAlloc: 1,024 slabs a memory block
  uint32_t log_capacity = 0;                         // records per team; 0: exactly enough
};

// Throws std::invalid_argument for an impossible configuration.
void validate(const SlabHashConfig& c);
structures::slab_hash_mode parse_slab_hash_mode(const std::string& name);

struct SlabHashMutantInfo {
  std::string name, breaks;
  bool map, multimap;  // the modes where it applies
};
const std::vector<SlabHashMutantInfo>& slab_hash_mutants();
structures::slab_hash_mutant parse_slab_hash_mutant(const std::string& name);  // throws invalid_argument
std::string slab_hash_mutant_name(structures::slab_hash_mutant m);

// The workload of a seed: the mix's kinds for the mode, unique values.
WorkloadSpec slab_hash_workload(const SlabHashConfig& c, uint64_t seed);

// The table's memory, in host memory (the simulator's, or a copy of the GPU's).
struct SlabHashMemory {
  std::vector<uint32_t> base_slabs, slabs, bitmaps;
  explicit SlabHashMemory(const SlabHashConfig& c);
  structures::slab_hash view(const SlabHashConfig& c, uint64_t seed);
};

// The hash function's a and b, from the seed.
void slab_hash_function(uint64_t seed, uint32_t& a, uint32_t& b);

// The structure over a table's three arrays (host or device memory).
structures::slab_hash slab_hash_view(const SlabHashConfig& c, uint64_t seed, uint32_t* base_slabs, uint32_t* slabs,
                                     uint32_t* bitmaps);

// Invariants of a quiescent table: every linked slab allocated and in
// exactly one list, no allocated slab unreachable, every key in its bucket,
// and (map mode) at most one live copy of a key. Empty when they hold.
std::vector<std::string> check_slab_hash_invariants(const SlabHashMemory& m, const structures::slab_hash& view);

}  // namespace warpcheck
