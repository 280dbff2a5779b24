// The mixed-operation benchmark's runner (see mix_bench.hpp), for nvcc.
#pragma once
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/tabulate.h>

#include "models/base/splitmix.hpp"
#include "stress/gpu/device_buffer.cuh"
#include "stress/gpu/mix_bench.hpp"

namespace warpcheck::gpu {

// One operation a slot: the prefill inserts half the range (a bijection of
// the slot on [0, range), so distinct keys), the mix draws kinds and keys
// uniformly. Values are slot + 1.
struct mix_bench_op {
  uint64_t range, count, seed;
  uint32_t insert, erase;  // percent; the rest contains
  OpKind insert_kind;      // the structure's insert (insert-if-absent, or upsert for a table that replaces)
  bool prefill;
  __host__ __device__ core::workload_op operator()(uint64_t i) const {
    core::workload_op op;
    op.active = i < count;
    op.value = static_cast<int64_t>(i % 0xFFFFFFF0u) + 1;
    if (prefill) {
      op.kind = insert_kind;
      op.key = static_cast<int64_t>((i * 2654435761ull + seed) % range);  // 2654435761 is prime: coprime to the ranges used
      return op;
    }
    const uint64_t h = detail::mix_pair(seed, i);
    const uint32_t pick = static_cast<uint32_t>(h % 100);
    op.kind = pick < insert ? insert_kind : pick < insert + erase ? OpKind::Erase : OpKind::Find;
    op.key = static_cast<int64_t>((h >> 20) % range);
    return op;
  }
};

// Runs the prefill and the mix on a structure already in device memory.
template <class Structure>
MixBenchResult run_mix_bench(const Structure& s, const MixBenchSpec& spec, OpKind insert_kind) {
  const uint64_t per_team = uint64_t(32) * spec.ops_per_lane;
  DeviceBuffer<cuda_backend::device_faults> faults(1);
  const cuda_backend::device_context ctx{uint64_t(1) << 22, faults.p};
  std::unique_ptr<DeviceLog> log;
  if (spec.record) log = std::make_unique<DeviceLog>(spec.teams(), static_cast<uint32_t>(2 * per_team), core::clock_kind::global_timer);
  auto phase = [&](uint64_t count, bool prefill) {
    const uint32_t teams = spec.teams_for(count);
    thrust::device_vector<core::workload_op> ops(size_t(teams) * per_team);
    thrust::tabulate(thrust::device, ops.begin(), ops.end(),
                     mix_bench_op{spec.range, count, spec.seed * 7919 + prefill, spec.insert, spec.erase, insert_kind, prefill});
    return launch_team_ops(s, thrust::raw_pointer_cast(ops.data()), teams, spec.ops_per_lane, log ? &log->view : nullptr, ctx,
                           spec.warps_per_block * 32);
  };
  MixBenchResult r;
  r.prefill_ms = phase(spec.prefill(), true);
  r.mix_ms = phase(spec.operations, false);
  cuda_backend::device_faults f{};
  faults.to_host(&f);
  r.faults = f.count;
  r.first_fault = f;
  if (log) r.log = log->to_host();
  return r;
}

}  // namespace warpcheck::gpu
