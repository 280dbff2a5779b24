// The slab hash on the GPU (definitions in gpu.cu, built with nvcc): one
// recorded stress run, and the paper's benchmarks.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "stress/gpu/gpu_run.hpp"
#include "stress/gpu/mix_bench.hpp"
#include "stress/slab_hash/config.hpp"

namespace warpcheck::gpu {

// One recorded run of a workload; `seed` picks the hash function.
// A recorded stress run; perturbed when `perturbation` is on (docs/gpu-perturbation.md).
GpuRun run_slab_hash(const SlabHashConfig& c, uint64_t seed, const std::vector<core::workload_op>& ops, uint64_t spin_bound,
                     const Perturbation& perturbation = {}, core::clock_kind clock = core::clock_kind::global_timer);

// The paper's benchmarks on one table of `elements` distinct keys with
// about `slabs_per_bucket` slabs a bucket (beta): bulk build, bulk search
// (all present, none present), then the concurrent mixes in turn, each a
// batch of `elements` operations. Medians of `repeats` fresh tables.
// Recording on: one log across all phases (kernel boundaries are exact
// cuts), returned for checking.
struct SlabHashBenchSpec {
  uint64_t elements = 1 << 22;
  double slabs_per_bucket = 0.6;
  bool record = false;
  uint32_t repeats = 3;
  uint64_t seed = 1;
};
struct SlabHashBenchResult {
  uint32_t buckets = 0;
  uint64_t slabs_allocated = 0;
  double utilization = 0;  // pair bytes stored / bytes of the slabs in use, after the build
  double build_ms = 0, search_present_ms = 0, search_absent_ms = 0;
  std::vector<double> mix_ms;  // one per mix, in order (.5,.5,0,0), (.2,.2,.3,.3), (.1,.1,.4,.4)
  std::unique_ptr<HostLog> log;
  uint64_t faults = 0;
  std::vector<std::string> invariant_violations;
};
SlabHashBenchResult run_slab_hash_bench(const SlabHashBenchSpec& spec);

// The GFSL thesis' mixed benchmark (stress/gpu/mix_bench.hpp) on a map with
// about `slabs_per_bucket` slabs a bucket once half the range is in: the
// unordered ceiling beside an ordered structure. Inserts are upserts.
struct SlabHashMixResult {
  MixBenchResult times;
  std::vector<std::string> invariant_violations;
};
SlabHashMixResult run_slab_hash_mix_bench(const MixBenchSpec& spec, double slabs_per_bucket = 0.6);

}  // namespace warpcheck::gpu
