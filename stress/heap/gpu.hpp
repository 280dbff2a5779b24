// The generalized heap on the GPU (definitions in gpu.cu, built with nvcc):
// one block a team, the team's scratch in shared memory. One recorded
// stress run, and the paper's benchmarks.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "stress/gpu/gpu_run.hpp"
#include "stress/heap/config.hpp"

namespace warpcheck::gpu {

// One recorded run of a workload (teams x ops_per_team): block 0's prefill
// first (its own launch), then every block's queue. The ticket clock by
// default: %globaltimer's ticks could tie two holds of the root.
// A recorded stress run; perturbed when `perturbation` is on (docs/gpu-perturbation.md).
GpuRun run_heap(const HeapConfig& c, const std::vector<core::workload_op>& ops, uint64_t spin_bound,
                const Perturbation& perturbation = {}, core::clock_kind clock = core::clock_kind::ticket);

// The paper's benchmarks (section 5): `keys` random (or sorted) keys pushed
// in full batches by `blocks` blocks, then popped (Table 1, Fig. 13); or a
// heap prefilled with `prefill_nodes` nodes, then `pairs_per_block` push-pop
// pairs a block (Fig. 15). Each phase is one launch, timed.
struct HeapBenchSpec {
  structures::heap_variant variant = structures::heap_variant::td;
  uint32_t fixes = 0;
  uint32_t blocks = 128, threads = 512, k = 1024;
  uint64_t keys = 0;
  uint32_t prefill_nodes = 0, pairs_per_block = 0;
  structures::heap_keys::order_kind order = structures::heap_keys::random;
  bool record = false;
  uint64_t spin_bound = uint64_t(1) << 24;
};
struct HeapBenchResult {
  double prefill_ms = 0, insert_ms = 0, delete_ms = 0, pairs_ms = 0;
  uint64_t faults = 0;
  cuda_backend::device_faults first_fault{};  // the details of the first
  std::vector<uintptr_t> device_bases;        // the heap's arrays on the device, for the fault's address
  std::unique_ptr<HostLog> log;
  std::unique_ptr<HostMemory> memory;  // the heap left by the run
  HeapConfig config;
};
HeapBenchResult run_heap_bench(const HeapBenchSpec& spec);

}  // namespace warpcheck::gpu
