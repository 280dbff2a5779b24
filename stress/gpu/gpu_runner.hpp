// The GPU back-end's run harness, callable from plain C++ (the .cu file
// holds the kernels). Built only when nvcc is found; every function throws
// std::runtime_error with the CUDA error when something fails on the device.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "linearizability/recorder/host_log.hpp"
#include "stress/heap_config.hpp"
#include "stress/slab_hash_config.hpp"
#include "stress/sorted_set_config.hpp"
#include "structures/core/cuda/device_faults.hpp"

namespace warpcheck::gpu {

struct DeviceInfo {
  bool present = false;
  std::string name, why_absent;
  int sms = 0;
  double memory_gib = 0;
};
DeviceInfo device_info();

struct TimerResolution {
  uint64_t min_step_ns = 0;     // smallest non-zero difference between two reads
  double mean_step_ns = 0;      // elapsed / number of changes seen
  uint64_t reads = 0, changes = 0;
};
TimerResolution measure_globaltimer(uint64_t reads);

struct SortedSetGpuSpec {
  SortedSetConfig set;        // teams = warps in the grid
  uint64_t seed = 1;          // workload
  bool record = true;
  core::clock_kind clock = core::clock_kind::global_timer;
  uint64_t spin_bound = 1u << 20;
  uint32_t repeats = 1;       // timed launches (fresh structure each); the log is the last one's
  const std::vector<core::workload_op>* ops = nullptr;  // the workload; null: Thrust's of `seed`, made on the device
};

struct SortedSetGpuRun {
  std::vector<double> kernel_ms;  // one per repeat, in order
  std::unique_ptr<HostLog> log;   // when recording
  cuda_backend::device_faults faults{};
  uint64_t operations = 0;
};
SortedSetGpuRun run_sorted_set_gpu(const SortedSetGpuSpec& spec);

// One recorded slab-hash run of a seed's workload (the stress command), with
// the table copied back and its quiescent invariants checked.
struct SlabHashGpuSpec {
  SlabHashConfig table;
  uint64_t seed = 1;  // the hash function, and the workload when `ops` is null
  const std::vector<core::workload_op>* ops = nullptr;
  core::clock_kind clock = core::clock_kind::global_timer;
  uint64_t spin_bound = 1u << 20;
};
struct SlabHashGpuRun {
  double kernel_ms = 0;
  std::unique_ptr<HostLog> log;
  cuda_backend::device_faults faults{};
  std::vector<std::string> invariant_violations;
};
SlabHashGpuRun run_slab_hash_gpu(const SlabHashGpuSpec& spec);

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

// The heap's memory copied back (HeapMemory's arrays).
struct HeapGpuMemory {
  std::vector<uint32_t> keys, states, partial, counters;
};

// One recorded heap run of a workload (the stress command): block 0's
// prefill first (its own launch), then every block's queue. The ticket
// clock by default: %globaltimer's ticks could tie two holds of the root.
struct HeapGpuSpec {
  HeapConfig heap;
  const std::vector<core::workload_op>* ops = nullptr;  // teams x ops_per_team
  core::clock_kind clock = core::clock_kind::ticket;
  uint64_t spin_bound = 1u << 20;
};
struct HeapGpuRun {
  double kernel_ms = 0;
  std::unique_ptr<HostLog> log;
  cuda_backend::device_faults faults{};
  HeapGpuMemory memory;
};
HeapGpuRun run_heap_gpu(const HeapGpuSpec& spec);

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
  std::unique_ptr<HostLog> log;
  HeapGpuMemory memory;
  HeapConfig config;
};
HeapBenchResult run_heap_bench(const HeapBenchSpec& spec);

}  // namespace warpcheck::gpu
