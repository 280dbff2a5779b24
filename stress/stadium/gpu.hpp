// Stadium hashing on the GPU (definitions in gpu.cu, built with nvcc): one
// recorded stress run, with the table in GPU memory or in pinned, mapped
// host memory, and the paper's benchmarks.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "stress/gpu/gpu_run.hpp"
#include "stress/stadium/config.hpp"

namespace warpcheck::gpu {

// One recorded run of a workload (teams x 32 x ops_per_lane): the board in
// GPU memory, the table where c says, the fillers uploaded first, warp 0's
// prefill launched alone before. The history comes from both parts of the
// log (stadium_history); run.log is left empty.
struct StadiumGpuRun {
  GpuRun run;
  History history;
};
// A recorded stress run; perturbed when `perturbation` is on (docs/gpu-perturbation.md).
StadiumGpuRun run_stadium(const StadiumConfig& c, const std::vector<core::workload_op>& ops, uint64_t spin_bound,
                          const Perturbation& perturbation = {}, core::clock_kind clock = core::clock_kind::global_timer);

// The paper's evaluation (section IV, Figure 19) on `pairs` distinct keys:
// a fresh table of the smallest prime above pairs / load buckets, then four
// kernels in turn, each one operation a slot: insert every pair, retrieve
// every key, retrieve half present and half absent keys, delete every key.
// Medians of `repeats` fresh tables; recording on: each phase's history,
// returned when `keep_log` (for checking).
struct StadiumBenchSpec {
  uint64_t pairs = uint64_t(1) << 25;
  double load = 0.8;
  uint32_t key_bytes = 4, value_bytes = 4, ticket_bits = 4;
  bool host_table = false;
  structures::stadium_kernel kernel = structures::stadium_kernel::hybrid;
  uint32_t fixes = structures::stadium_fix::kAll;
  double switch_at = 0.5;
  uint32_t ops_per_lane = 8;
  bool record = false;
  bool keep_log = false;
  bool absent_lookups = true;  // false: skip the half-absent phase (1-bit tickets probe every bucket for an absent key)
  uint32_t repeats = 3;
};
struct StadiumBenchResult {
  uint32_t buckets = 0;
  double insert_ms = 0, find_ms = 0, find_half_ms = 0, erase_ms = 0;
  uint64_t faults = 0;
  std::vector<History> histories;  // keep_log: one a phase
  // After the inserts: every pair live and whole under its key's info
  // bits, nothing else; after the deletes: every ticket available.
  std::vector<std::string> invariant_violations;
};
StadiumBenchResult run_stadium_bench(const StadiumBenchSpec& spec);

// The host link's bandwidth (pinned memory, best of 5 copies of 256 MiB),
// GB/s: to the device (what a GPU's reads of host memory cross) or from it.
double host_link_gbs(bool to_device);

}  // namespace warpcheck::gpu
