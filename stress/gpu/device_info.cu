#include <cuda_runtime.h>

#include "stress/gpu/device_buffer.cuh"
#include "stress/gpu/device_info.hpp"

namespace warpcheck::gpu {

namespace {

__global__ void globaltimer_kernel(uint64_t reads, unsigned long long* out) {
  uint64_t first, prev, t, min_step = ~0ull, changes = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(first));
  prev = first;
  for (uint64_t i = 0; i < reads; ++i) {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    if (t != prev) {
      ++changes;
      if (t - prev < min_step) min_step = t - prev;
      prev = t;
    }
  }
  out[0] = min_step;
  out[1] = changes;
  out[2] = prev - first;
}

}  // namespace

DeviceInfo device_info() {
  DeviceInfo info;
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    info.why_absent = e != cudaSuccess ? cudaGetErrorString(e) : "no CUDA device";
    cudaGetLastError();
    return info;
  }
  cudaDeviceProp p{};
  check(cudaGetDeviceProperties(&p, 0), "cudaGetDeviceProperties");
  info.present = true;
  info.name = p.name;
  info.sms = p.multiProcessorCount;
  info.memory_gib = double(p.totalGlobalMem) / double(1ull << 30);
  return info;
}

TimerResolution measure_globaltimer(uint64_t reads) {
  DeviceBuffer<unsigned long long> out(3);
  globaltimer_kernel<<<1, 1>>>(reads, out.p);
  check(cudaGetLastError(), "globaltimer launch");
  check(cudaDeviceSynchronize(), "globaltimer kernel");
  unsigned long long h[3];
  out.to_host(h);
  TimerResolution r;
  r.reads = reads;
  r.changes = h[1];
  r.min_step_ns = h[1] ? h[0] : 0;
  r.mean_step_ns = h[1] ? double(h[2]) / double(h[1]) : 0;
  return r;
}

}  // namespace warpcheck::gpu
