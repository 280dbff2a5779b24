#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/copy.h>
#include <thrust/tabulate.h>

#include "stress/gpu/device_buffer.cuh"
#include "stress/gpu/gpu_runner.hpp"

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

SortedSetGpuRun run_sorted_set_gpu(const SortedSetGpuSpec& spec) {
  validate(spec.set);
  const SortedSetConfig& c = spec.set;
  const uint64_t n_ops = uint64_t(c.teams) * 32 * c.ops_per_lane;
  SortedSetGpuRun run;
  run.operations = n_ops;
  // The workload is generated on the device: the same function of (seed, i) as on the host.
  const auto ops = device_workload(spec.ops, n_ops, make_generator(sorted_set_workload(c, spec.seed)));
  DeviceBuffer<uint32_t> locks(c.buckets), sizes(c.buckets);
  DeviceBuffer<int32_t> keys(size_t(c.buckets) * structures::sorted_array_set::kSlots);
  DeviceLog log(c.teams, c.log_capacity ? c.log_capacity : 32 * c.ops_per_lane, spec.clock);
  DeviceBuffer<cuda_backend::device_faults> faults(1);
  const structures::sorted_array_set set{locks.p, sizes.p, keys.p, c.buckets, c.mutant};
  const cuda_backend::device_context ctx{spec.spin_bound, faults.p};
  for (uint32_t r = 0; r < std::max(spec.repeats, 1u); ++r) {
    locks.zero();
    sizes.zero();
    log.reset();
    faults.zero();
    run.kernel_ms.push_back(launch_team_ops(set, thrust::raw_pointer_cast(ops.data()), c.teams, c.ops_per_lane,
                                            spec.record ? &log.view : nullptr, ctx));
  }
  faults.to_host(&run.faults);
  if (spec.record) run.log = log.to_host();
  return run;
}

}  // namespace warpcheck::gpu
