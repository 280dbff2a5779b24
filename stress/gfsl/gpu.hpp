// The GFSL skiplist on the GPU (definitions in gpu.cu, built with nvcc):
// one recorded stress run, and the thesis' benchmark.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "stress/gfsl/config.hpp"
#include "stress/gpu/gpu_run.hpp"

namespace warpcheck::gpu {

GpuRun run_gfsl(const GfslConfig& c, const std::vector<core::workload_op>& ops, uint64_t spin_bound,
                core::clock_kind clock = core::clock_kind::global_timer);

// The thesis' benchmark (chapter 5): `operations` uniformly random
// operations of a mix [insert, delete, contains] over keys [0, range), on a
// structure prefilled with half the range (random keys, inserted by the
// same kernel first), warps in blocks of `warps_per_block`. Recording off
// or on (then the log holds both launches; a kernel boundary is an exact cut).
struct GfslBenchSpec {
  uint64_t range = 1 << 20;
  uint64_t operations = 10'000'000;
  uint32_t insert = 10, erase = 10, contains = 80;  // percent
  uint32_t chunk = 32;
  uint32_t warps_per_block = 16;
  uint32_t ops_per_lane = 8;
  bool record = false;
  uint64_t seed = 1;
};
struct GfslBenchResult {
  double prefill_ms = 0, mix_ms = 0;
  uint64_t prefill_ops = 0, mix_ops = 0;
  uint32_t chunks_used = 0, height = 0;
  uint64_t faults = 0;
  std::unique_ptr<HostLog> log;
  std::unique_ptr<HostMemory> memory;
  GfslConfig config;
};
GfslBenchResult run_gfsl_bench(const GfslBenchSpec& spec);

}  // namespace warpcheck::gpu
