// The GPU, as the host sees it: whether there is one, and the resolution of
// its %globaltimer. Plain C++ (the definitions are in device_info.cu).
#pragma once
#include <cstdint>
#include <string>

namespace warpcheck::gpu {

struct DeviceInfo {
  bool present = false;
  std::string name, why_absent;
  int count = 0;  // devices this process sees (CUDA_VISIBLE_DEVICES applied); the rest describes device 0
  int sms = 0;
  double memory_gib = 0;
  double peak_bandwidth_gbs = 0;  // from the memory clock and bus width: the data sheet's figure
};
DeviceInfo device_info();

// Device-to-device copy bandwidth (best of 5 copies of 1 GiB), counting
// bytes read plus written: the bytes-moved floor's denominator.
double copy_bandwidth_gbs();

struct TimerResolution {
  uint64_t min_step_ns = 0;  // smallest non-zero difference between two reads
  double mean_step_ns = 0;   // elapsed / number of changes seen
  uint64_t reads = 0, changes = 0;
};
TimerResolution measure_globaltimer(uint64_t reads);

}  // namespace warpcheck::gpu
