// The sorted-array set on the GPU (definitions in gpu.cu, built with nvcc):
// one recorded stress run, and the recorder benchmark's timed runs.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "stress/gpu/gpu_run.hpp"
#include "stress/sorted_set/config.hpp"

namespace warpcheck::gpu {

GpuRun run_sorted_set(const SortedSetConfig& c, const std::vector<core::workload_op>& ops, uint64_t spin_bound,
                      const Perturbation& perturbation = {}, core::clock_kind clock = core::clock_kind::global_timer);

// Timed launches of a benchmark workload (a uniform mix over the keys, made
// on the device), recording on or off.
struct SortedSetBenchSpec {
  SortedSetConfig set;
  uint64_t seed = 1;
  bool record = true;
  core::clock_kind clock = core::clock_kind::global_timer;
  uint64_t spin_bound = 1u << 20;
  uint32_t repeats = 1;  // timed launches (fresh structure each); the log is the last one's
};
struct SortedSetBenchRun {
  std::vector<double> kernel_ms;  // one per repeat, in order
  std::unique_ptr<HostLog> log;   // when recording
  cuda_backend::device_faults faults{};
  uint64_t operations = 0;
};
SortedSetBenchRun run_sorted_set_bench(const SortedSetBenchSpec& spec);

}  // namespace warpcheck::gpu
