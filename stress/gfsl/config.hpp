// The GFSL skiplist's run configuration, memory (a pool of chunks, the
// head array, the level counters, the bump allocator), and its runs on the
// simulator and real threads (the GPU's in gpu.hpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "stress/harness/sim_harness.hpp"
#include "stress/seam/structure_memory.hpp"
#include "stress/seam/workload.hpp"
#include "structures/gfsl/gfsl.hpp"

namespace warpcheck {

struct GfslConfig : WarpWorkload {  // teams are warps
  uint32_t chunk = 32;                 // entries a chunk: 32 or 16
  uint32_t pool_chunks = 0;            // 0: enough for the workload
  uint32_t fixes = 0;                  // structures::gfsl_fix bits (0: the printed pseudocode)
  structures::gfsl_mutant mutant = structures::gfsl_mutant::none;
  double p_chunk = 1.0;                // the chance a split raises a key
  uint32_t validation_tries = 1024;    // structures::gfsl::validation_tries
  uint32_t log_capacity = 0;           // records per team; 0: exactly enough
};

// Throws std::invalid_argument for an impossible configuration.
void validate(const GfslConfig& c);
uint32_t gfsl_pool_chunks(const GfslConfig& c);
WorkloadShape gfsl_shape(const GfslConfig& c);

MemoryLayout gfsl_layout(const GfslConfig& c);
// The empty structure: one chunk a level holding minus infinity, each
// pointing at the one below; the heads; the allocator past them.
void gfsl_initialize(const GfslConfig& c, HostMemory& m);
structures::gfsl gfsl_view(const GfslConfig& c, ArrayPointers arrays);

// Its quiescent invariants: structures/gfsl/gfsl_invariants.hpp.

// One run of `ops` (teams x 32 x ops_per_lane) under sim's schedule.
CheckedRun run_gfsl_sim(const GfslConfig& c, const sim::SimConfig& sim, const std::vector<core::workload_op>& ops);
// The same on a structure's memory the caller keeps (gfsl_layout, initialized
// or left by an earlier run), to look at afterwards.
CheckedRun run_gfsl_sim(const GfslConfig& c, const sim::SimConfig& sim, const std::vector<core::workload_op>& ops,
                        HostMemory& memory);

}  // namespace warpcheck
