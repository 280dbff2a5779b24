// What one recorded GPU run of a structure brings back to the host: its
// log, its faults and its memory (for the quiescent invariants). Plain C++.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "stress/harness/structure_memory.hpp"
#include "structures/core/cuda/device_faults.hpp"
#include "structures/core/recorder/host_log.hpp"

namespace warpcheck::gpu {

struct GpuRun {
  double kernel_ms = 0;
  std::unique_ptr<HostLog> log;
  cuda_backend::device_faults faults{};
  std::unique_ptr<HostMemory> memory;  // the structure's arrays, copied back after the run
  std::vector<uintptr_t> device_bases;  // where those arrays were on the device: names a fault's address
};

}  // namespace warpcheck::gpu
