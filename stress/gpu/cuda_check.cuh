// Checked CUDA calls, a timed launch and a device buffer: errors thrown
// with what failed.
#pragma once
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace warpcheck::gpu {

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string("CUDA: ") + what + ": " + cudaGetErrorString(e));
}

// Runs `launch` (one kernel launch) between two events; the kernel's time in ms.
template <class Launch>
float timed_launch(Launch launch) {
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  check(cudaEventRecord(start), "cudaEventRecord");
  launch();
  check(cudaGetLastError(), "launch");
  check(cudaEventRecord(stop), "cudaEventRecord");
  check(cudaEventSynchronize(stop), "kernel");
  float ms = 0;
  check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return ms;
}

template <class T>
struct DeviceBuffer {
  T* p = nullptr;
  size_t n = 0;
  explicit DeviceBuffer(size_t count) : n(count) {
    check(cudaMalloc(&p, sizeof(T) * (count ? count : 1)), "cudaMalloc");
    zero();
  }
  ~DeviceBuffer() { cudaFree(p); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void zero() { check(cudaMemset(p, 0, sizeof(T) * (n ? n : 1)), "cudaMemset"); }
  void fill_bytes(int byte) { check(cudaMemset(p, byte, sizeof(T) * (n ? n : 1)), "cudaMemset"); }
  void to_host(T* dst) const { check(cudaMemcpy(dst, p, sizeof(T) * n, cudaMemcpyDeviceToHost), "cudaMemcpy"); }
  void to_host(std::vector<T>& dst) const {
    dst.resize(n);
    to_host(dst.data());
  }
};

}  // namespace warpcheck::gpu
