#include <cuda_runtime.h>

#include <algorithm>

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
  info.count = count;
  info.name = p.name;
  info.sms = p.multiProcessorCount;
  info.memory_gib = double(p.totalGlobalMem) / double(1ull << 30);
  int clock_khz = 0, bus_bits = 0;  // attributes: CUDA 13's cudaDeviceProp no longer has the memory clock
  if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, 0) == cudaSuccess &&
      cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0) == cudaSuccess)
    info.peak_bandwidth_gbs = 2.0 * double(clock_khz) * 1e3 * double(bus_bits) / 8 / 1e9;  // double data rate
  cudaGetLastError();
  return info;
}

double copy_bandwidth_gbs() {
  const size_t bytes = size_t(1) << 30;
  DeviceBuffer<char> a(bytes), b(bytes);
  check(cudaMemset(a.p, 1, bytes), "cudaMemset");
  cudaEvent_t start, end;
  cudaEventCreate(&start);
  cudaEventCreate(&end);
  check(cudaMemcpy(b.p, a.p, bytes, cudaMemcpyDeviceToDevice), "cudaMemcpy");
  float best = 1e9f;
  for (int i = 0; i < 5; ++i) {
    cudaEventRecord(start);
    cudaMemcpy(b.p, a.p, bytes, cudaMemcpyDeviceToDevice);
    cudaEventRecord(end);
    cudaEventSynchronize(end);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, end);
    best = std::min(best, ms);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(end);
  return 2.0 * double(bytes) / (best / 1e3) / 1e9;
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
