// The GFSL skiplist on the GPU (definitions in gpu.cu, built with nvcc):
// one recorded stress run, and the thesis' benchmark.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "stress/gfsl/config.hpp"
#include "stress/gpu/gpu_run.hpp"
#include "stress/gpu/mix_bench.hpp"

namespace warpcheck::gpu {

GpuRun run_gfsl(const GfslConfig& c, const std::vector<core::workload_op>& ops, uint64_t spin_bound,
                const Perturbation& perturbation = {}, core::clock_kind clock = core::clock_kind::global_timer);

// The thesis' benchmark (chapter 5, stress/gpu/mix_bench.hpp) on a GFSL
// of `chunk` entries a chunk, room in its pool for every split.
struct GfslBenchSpec {
  MixBenchSpec mix;
  uint32_t chunk = 32;
  uint32_t validation_tries = GfslConfig{}.validation_tries;
};
struct GfslBenchResult {
  MixBenchResult times;
  uint32_t chunks_used = 0, height = 0;
  std::unique_ptr<HostMemory> memory;  // for the quiescent invariants
  std::vector<uintptr_t> device_bases;  // where memory's arrays were on the device (names a fault's address)
  GfslConfig config;
};
GfslBenchResult run_gfsl_bench(const GfslBenchSpec& spec);

}  // namespace warpcheck::gpu
