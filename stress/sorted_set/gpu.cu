#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/tabulate.h>

#include "models/base/splitmix.hpp"
#include "stress/gpu/device_buffer.cuh"
#include "stress/sorted_set/gpu.hpp"

namespace warpcheck::gpu {

namespace {

// The benchmark's workload: operation i is a pure function of (seed, i), a
// uniform mix of insert, erase and contains over [0, keys).
struct uniform_mix {
  uint64_t seed;
  int64_t keys;
  OpMix mix;
  __host__ __device__ core::workload_op operator()(uint64_t i) const {
    const uint64_t h = detail::mix_pair(seed, i);
    const uint32_t pick = static_cast<uint32_t>(h % (mix.insert + mix.erase + mix.contains));
    core::workload_op op;
    op.kind = pick < mix.insert ? OpKind::Insert : pick < mix.insert + mix.erase ? OpKind::Erase : OpKind::Contains;
    op.key = static_cast<int64_t>((h >> 32) % static_cast<uint64_t>(keys));
    return op;
  }
};

}  // namespace

GpuRun run_sorted_set(const SortedSetConfig& c, const std::vector<core::workload_op>& ops, uint64_t spin_bound,
                      const Perturbation& perturbation, core::clock_kind clock) {
  validate(c);
  return run_warp_structure(
      sorted_set_layout(c), [&](ArrayPointers a) { return sorted_set_view(c, a); }, ops, c.teams, c.ops_per_lane,
      c.log_capacity ? c.log_capacity : 32 * c.ops_per_lane, clock, spin_bound, nullptr,
      prefill_ops(c, sorted_set_shape(c).kinds.insert), perturbation);
}

SortedSetBenchRun run_sorted_set_bench(const SortedSetBenchSpec& spec) {
  const SortedSetConfig& c = spec.set;
  validate(c);
  const uint64_t n_ops = uint64_t(c.teams) * 32 * c.ops_per_lane;
  SortedSetBenchRun run;
  run.operations = n_ops;
  thrust::device_vector<core::workload_op> ops(n_ops);
  thrust::tabulate(thrust::device, ops.begin(), ops.end(), uniform_mix{spec.seed, c.keys, c.mix});
  DeviceMemory memory(sorted_set_layout(c));
  DeviceLog log(c.teams, c.log_capacity ? c.log_capacity : 32 * c.ops_per_lane, spec.clock);
  DeviceBuffer<cuda_backend::device_faults> faults(1);
  const structures::sorted_set set = sorted_set_view(c, memory.pointers());
  const cuda_backend::device_context ctx{spec.spin_bound, faults.p};
  for (uint32_t r = 0; r < std::max(spec.repeats, 1u); ++r) {
    memory.reset();
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
