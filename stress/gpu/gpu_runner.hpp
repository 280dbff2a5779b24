// The GPU back-end's run harness, callable from plain C++ (the .cu file
// holds the kernels). Built only when nvcc is found; every function throws
// std::runtime_error with the CUDA error when something fails on the device.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "linearizability/recorder/host_log.hpp"
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
};

struct SortedSetGpuRun {
  std::vector<double> kernel_ms;  // one per repeat, in order
  std::unique_ptr<HostLog> log;   // when recording
  cuda_backend::device_faults faults{};
  uint64_t operations = 0;
};
SortedSetGpuRun run_sorted_set_gpu(const SortedSetGpuSpec& spec);

}  // namespace warpcheck::gpu
