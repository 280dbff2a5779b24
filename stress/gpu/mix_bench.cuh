// The mixed-operation benchmark's runner (see mix_bench.hpp), for nvcc.
#pragma once
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/tabulate.h>

#include "stress/gpu/device_buffer.cuh"
#include "stress/gpu/mix_bench.hpp"

namespace warpcheck::gpu {

// Runs the prefill and the mix on a structure already in device memory.
template <class Structure>
MixBenchResult run_mix_bench(const Structure& s, const MixBenchSpec& spec, OpKind insert_kind) {
  const uint64_t per_team = uint64_t(32) * spec.ops_per_lane;
  DeviceBuffer<cuda_backend::device_faults> faults(1);
  cuda_backend::device_context ctx{uint64_t(1) << 22, faults.p};
  ctx.backoff_cap_ns = spec.backoff_cap_ns;
  std::unique_ptr<DeviceLog> log;
  const uint32_t launches = spec.phases ? 4 : 2;  // the prefill and the mix's launches: a record a team's operation in each
  if (spec.record)
    log = std::make_unique<DeviceLog>(spec.teams(), static_cast<uint32_t>(launches * per_team), core::clock_kind::global_timer);
  auto launch = [&](const thrust::device_vector<core::workload_op>& ops, uint32_t teams) {
    return launch_team_ops(s, thrust::raw_pointer_cast(ops.data()), teams, spec.ops_per_lane, log ? &log->view : nullptr, ctx,
                           spec.warps_per_block * 32);
  };
  auto phase = [&](uint64_t count, bool prefill) -> double {
    const mix_bench_op gen = mix_bench_phase(spec, count, prefill, insert_kind);
    if (prefill || !spec.phases) {
      const uint32_t teams = spec.teams_for(count);
      thrust::device_vector<core::workload_op> ops(size_t(teams) * per_team);
      thrust::tabulate(thrust::device, ops.begin(), ops.end(), gen);
      return launch(ops, teams);
    }
    // Phases: each kind's operations, in op order, as a launch of their own.
    thrust::device_vector<core::workload_op> all(count);
    thrust::tabulate(thrust::device, all.begin(), all.end(), gen);
    double ms = 0;
    for (OpKind kind : {insert_kind, OpKind::Erase, OpKind::Find}) {
      const uint64_t n = thrust::count_if(thrust::device, all.begin(), all.end(), op_kind_is{kind});
      if (n == 0) continue;
      const uint32_t teams = spec.teams_for(n);
      core::workload_op idle;
      idle.active = false;
      thrust::device_vector<core::workload_op> ops(size_t(teams) * per_team, idle);
      thrust::copy_if(thrust::device, all.begin(), all.end(), ops.begin(), op_kind_is{kind});
      ms += launch(ops, teams);
    }
    return ms;
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
