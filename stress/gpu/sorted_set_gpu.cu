#include <cuda_runtime.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/tabulate.h>

#include <stdexcept>

#include "stress/gpu/gpu_runner.hpp"
#include "structures/core/cuda/warp_team.cuh"
#include "structures/core/warp_driver.hpp"

namespace warpcheck::gpu {

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string("CUDA: ") + what + ": " + cudaGetErrorString(e));
}

template <bool Record>
__global__ void sorted_set_kernel(structures::sorted_array_set set, const core::workload_op* ops, uint32_t per_lane,
                                  history_log log, cuda_backend::device_context ctx) {
  cuda_backend::warp_team t(ctx);
  core::run_team_ops(t, set, {ops + size_t(t.team_id()) * 32 * per_lane, per_lane}, Record ? &log : nullptr);
}

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

template <class T>
struct DeviceBuffer {
  T* p = nullptr;
  size_t n = 0;
  explicit DeviceBuffer(size_t count) : n(count) {
    check(cudaMalloc(&p, sizeof(T) * (count ? count : 1)), "cudaMalloc");
    check(cudaMemset(p, 0, sizeof(T) * (count ? count : 1)), "cudaMemset");
  }
  ~DeviceBuffer() { cudaFree(p); }
  void zero() { check(cudaMemset(p, 0, sizeof(T) * (n ? n : 1)), "cudaMemset"); }
  void to_host(T* dst) const { check(cudaMemcpy(dst, p, sizeof(T) * n, cudaMemcpyDeviceToHost), "cudaMemcpy"); }
};

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

SortedSetGpuRun run_sorted_set_gpu(const SortedSetGpuSpec& spec) {
  validate(spec.set);
  const SortedSetConfig& c = spec.set;
  const uint64_t n_ops = uint64_t(c.teams) * 32 * c.ops_per_lane;
  SortedSetGpuRun run;
  run.operations = n_ops;

  // The workload is generated on the device: the same function of (seed, i) as on the host.
  thrust::device_vector<core::workload_op> ops(n_ops);
  thrust::tabulate(thrust::device, ops.begin(), ops.end(),
                   [g = make_generator({spec.seed, n_ops, c.keys, c.mix})] __device__(uint64_t i) { return g(i); });

  DeviceBuffer<uint32_t> locks(c.buckets), sizes(c.buckets);
  DeviceBuffer<int32_t> keys(size_t(c.buckets) * structures::sorted_array_set::kSlots);
  const uint32_t capacity = c.log_capacity ? c.log_capacity : 32 * c.ops_per_lane;
  DeviceBuffer<log_record> records(spec.record ? size_t(c.teams) * capacity : 0);
  DeviceBuffer<uint32_t> counts(c.teams), lost(c.teams);
  DeviceBuffer<uint64_t> ticket(1);
  DeviceBuffer<cuda_backend::device_faults> faults(1);

  structures::sorted_array_set set{locks.p, sizes.p, keys.p, c.buckets, c.mutant};
  history_log log;
  log.records = records.p;
  log.counts = counts.p;
  log.lost = lost.p;
  log.ticket = ticket.p;
  log.streams = c.teams;
  log.capacity = capacity;
  log.clock = spec.clock;
  const cuda_backend::device_context ctx{spec.spin_bound, faults.p};

  constexpr uint32_t kThreads = 256;
  const uint64_t threads = uint64_t(c.teams) * 32;
  const uint32_t blocks = static_cast<uint32_t>((threads + kThreads - 1) / kThreads);
  if (c.teams % (kThreads / 32)) throw std::invalid_argument("gpu: teams must be a multiple of 8 (warps per 256-thread block)");

  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  for (uint32_t r = 0; r < std::max(spec.repeats, 1u); ++r) {
    locks.zero();
    sizes.zero();
    counts.zero();
    lost.zero();
    ticket.zero();
    faults.zero();
    check(cudaEventRecord(start), "cudaEventRecord");
    if (spec.record)
      sorted_set_kernel<true><<<blocks, kThreads>>>(set, thrust::raw_pointer_cast(ops.data()), c.ops_per_lane, log, ctx);
    else
      sorted_set_kernel<false><<<blocks, kThreads>>>(set, thrust::raw_pointer_cast(ops.data()), c.ops_per_lane, log, ctx);
    check(cudaGetLastError(), "sorted-set launch");
    check(cudaEventRecord(stop), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "sorted-set kernel");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    run.kernel_ms.push_back(ms);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);

  faults.to_host(&run.faults);
  if (spec.record) {
    run.log = std::make_unique<HostLog>(c.teams, capacity);
    records.to_host(run.log->records.data());
    counts.to_host(run.log->counts.data());
    lost.to_host(run.log->lost.data());
  }
  return run;
}

}  // namespace warpcheck::gpu
