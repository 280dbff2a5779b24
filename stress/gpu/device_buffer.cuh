// Device memory and launches for the GPU harnesses: every CUDA call checked,
// errors thrown with what failed.
#pragma once
#include <cuda_runtime.h>
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/tabulate.h>

#include <stdexcept>
#include <string>
#include <vector>

#include <memory>

#include "stress/gpu/gpu_run.hpp"
#include "stress/harness/structure_memory.hpp"
#include "stress/workload.hpp"
#include "structures/core/cuda/warp_team.cuh"
#include "structures/core/recorder/host_log.hpp"
#include "structures/core/warp_driver.hpp"

namespace warpcheck::gpu {

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string("CUDA: ") + what + ": " + cudaGetErrorString(e));
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

// A structure's memory on the device, laid out from its MemoryLayout (the
// same description the host's HostMemory uses), and its copy back.
class DeviceMemory {
 public:
  explicit DeviceMemory(MemoryLayout layout) : layout_(std::move(layout)) {
    for (const ArraySpec& a : layout_) {
      void* p = nullptr;
      check(cudaMalloc(&p, a.bytes() ? a.bytes() : 1), "cudaMalloc");
      pointers_.push_back(p);
    }
    reset();
  }
  ~DeviceMemory() {
    for (void* p : pointers_) cudaFree(p);
  }
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;
  ArrayPointers pointers() const { return pointers_; }
  void reset() {
    for (size_t i = 0; i < layout_.size(); ++i)
      check(cudaMemset(pointers_[i], layout_[i].fill, layout_[i].bytes()), "cudaMemset");
  }
  // A structure whose empty state is not a fill: its initial image, made on the host.
  void upload(const HostMemory& image) {
    for (size_t i = 0; i < layout_.size(); ++i)
      check(cudaMemcpy(pointers_[i], image.bytes(i), layout_[i].bytes(), cudaMemcpyHostToDevice), "cudaMemcpy");
  }
  template <class T>
  std::vector<T> copy(size_t i) const {  // one array, back to the host
    std::vector<T> out(layout_[i].bytes() / sizeof(T));
    check(cudaMemcpy(out.data(), pointers_[i], out.size() * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
    return out;
  }
  std::unique_ptr<HostMemory> to_host() const {
    auto h = std::make_unique<HostMemory>(layout_);
    for (size_t i = 0; i < layout_.size(); ++i)
      check(cudaMemcpy(h->bytes(i), pointers_[i], layout_[i].bytes(), cudaMemcpyDeviceToHost), "cudaMemcpy");
    return h;
  }

 private:
  MemoryLayout layout_;
  std::vector<void*> pointers_;
};

// The recorded warp-cooperative driver on the device: one team per warp.
template <bool Record, class Structure>
__global__ void team_ops_kernel(Structure s, const core::workload_op* ops, uint32_t per_lane, history_log log,
                                cuda_backend::device_context ctx) {
  cuda_backend::warp_team t(ctx);
  core::run_team_ops(t, s, {ops + size_t(t.team_id()) * 32 * per_lane, per_lane}, Record ? &log : nullptr);
}

constexpr uint32_t kThreadsPerBlock = 256;

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

// Launches `teams` warps in blocks of `threads` (teams a multiple of the
// warps a block) and returns the kernel's time in ms.
template <class Structure>
float launch_team_ops(const Structure& s, const core::workload_op* ops, uint32_t teams, uint32_t per_lane,
                      const history_log* log, const cuda_backend::device_context& ctx, uint32_t threads = kThreadsPerBlock) {
  if (threads % 32 || teams % (threads / 32))
    throw std::invalid_argument("gpu: teams must be a multiple of " + std::to_string(threads / 32) + " (warps a block)");
  const uint32_t blocks = teams / (threads / 32);
  return timed_launch([&] {
    if (log) team_ops_kernel<true><<<blocks, threads>>>(s, ops, per_lane, *log, ctx);
    else team_ops_kernel<false><<<blocks, threads>>>(s, ops, per_lane, history_log{}, ctx);
  });
}

// A workload on the device.
inline thrust::device_vector<core::workload_op> to_device(const std::vector<core::workload_op>& ops) {
  thrust::device_vector<core::workload_op> d(ops.size());
  thrust::copy(ops.begin(), ops.end(), d.begin());
  return d;
}

// A device log of `streams` x `capacity` records (and `key_capacity` keys a
// stream for batched operations), and its copy back.
struct DeviceLog {
  DeviceBuffer<log_record> records;
  DeviceBuffer<uint32_t> counts, lost;
  DeviceBuffer<uint64_t> ticket;
  DeviceBuffer<int64_t> keys;
  DeviceBuffer<uint32_t> key_counts;
  history_log view;
  DeviceLog(uint32_t streams, uint32_t capacity, core::clock_kind clock, uint32_t key_capacity = 0)
      : records(size_t(streams) * capacity), counts(streams), lost(streams), ticket(1),
        keys(size_t(streams) * key_capacity), key_counts(streams) {
    view.records = records.p;
    view.counts = counts.p;
    view.lost = lost.p;
    view.ticket = ticket.p;
    view.streams = streams;
    view.capacity = capacity;
    view.clock = clock;
    view.keys = keys.p;
    view.key_counts = key_counts.p;
    view.key_capacity = key_capacity;
  }
  void reset() {
    counts.zero();
    lost.zero();
    ticket.zero();
    key_counts.zero();
  }
  std::unique_ptr<HostLog> to_host() const {
    auto h = std::make_unique<HostLog>(view.streams, view.capacity, view.key_capacity);
    records.to_host(h->records.data());
    counts.to_host(h->counts.data());
    lost.to_host(h->lost.data());
    if (view.key_capacity) keys.to_host(h->keys.data());
    key_counts.to_host(h->key_counts.data());
    return h;
  }
};

// One recorded run of a warp-cooperative structure: its memory laid out on
// the device, the workload copied there, one launch (after a launch of the
// prefill by one warp, when there is one); the log, the faults and the
// memory come back.
// `initial`: the structure's empty state when it is not the layout's fill.
template <class MakeView>
GpuRun run_warp_structure(const MemoryLayout& layout, MakeView make_view, const std::vector<core::workload_op>& ops,
                          uint32_t teams, uint32_t per_lane, uint32_t log_capacity, core::clock_kind clock,
                          uint64_t spin_bound, const HostMemory* initial = nullptr, const Prefill& prefill = {}) {
  if (ops.size() != size_t(teams) * 32 * per_lane) throw std::invalid_argument("gpu: workload size does not fit the shape");
  DeviceMemory memory(layout);
  if (initial) memory.upload(*initial);
  DeviceLog log(teams, log_capacity + prefill.records(), clock);
  DeviceBuffer<cuda_backend::device_faults> faults(1);
  const auto view = make_view(memory.pointers());
  GpuRun run;
  if (prefill.per_lane) {
    const auto device_prefill = to_device(prefill.ops);
    launch_team_ops(view, thrust::raw_pointer_cast(device_prefill.data()), 1, prefill.per_lane, &log.view,
                    {spin_bound, faults.p}, 32);
  }
  const auto device_ops = to_device(ops);
  run.kernel_ms = launch_team_ops(view, thrust::raw_pointer_cast(device_ops.data()), teams, per_lane, &log.view, {spin_bound, faults.p});
  faults.to_host(&run.faults);
  run.log = log.to_host();
  run.memory = memory.to_host();
  for (void* base : memory.pointers()) run.device_bases.push_back(reinterpret_cast<uintptr_t>(base));
  return run;
}

}  // namespace warpcheck::gpu
