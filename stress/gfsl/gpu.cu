#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/tabulate.h>

#include <algorithm>

#include "models/detail/hash.hpp"
#include "stress/gfsl/gpu.hpp"
#include "stress/gpu/device_buffer.cuh"

namespace warpcheck::gpu {

GpuRun run_gfsl(const GfslConfig& c, const std::vector<core::workload_op>& ops, uint64_t spin_bound, core::clock_kind clock) {
  validate(c);
  HostMemory image(gfsl_layout(c));
  gfsl_initialize(c, image);
  return run_warp_structure(
      gfsl_layout(c), [&](ArrayPointers a) { return gfsl_view(c, a); }, ops, c.teams, c.ops_per_lane,
      c.log_capacity ? c.log_capacity : 32 * c.ops_per_lane, clock, spin_bound, &image);
}

namespace {

// The thesis' workloads, one operation a slot: the prefill inserts half the
// range (a bijection of the slot on [0, range), so distinct keys), the mix
// draws kinds and keys uniformly. Values are slot + 1.
struct bench_op {
  uint64_t range, count, seed;
  uint32_t insert, erase;  // percent; the rest contains
  bool prefill;
  __host__ __device__ core::workload_op operator()(uint64_t i) const {
    core::workload_op op;
    op.active = i < count;
    op.value = static_cast<int64_t>(i % 0xFFFFFFF0u) + 1;
    if (prefill) {
      op.kind = OpKind::Insert;
      op.key = static_cast<int64_t>((i * 2654435761ull + seed) % range);  // 2654435761 is prime: coprime to the ranges used
      return op;
    }
    const uint64_t h = detail::mix_pair(seed, i);
    const uint32_t pick = static_cast<uint32_t>(h % 100);
    op.kind = pick < insert ? OpKind::Insert : pick < insert + erase ? OpKind::Erase : OpKind::Find;
    op.key = static_cast<int64_t>((h >> 20) % range);
    return op;
  }
};

}  // namespace

GfslBenchResult run_gfsl_bench(const GfslBenchSpec& spec) {
  const uint32_t warps_per_block = spec.warps_per_block;
  const uint64_t per_team = uint64_t(32) * spec.ops_per_lane;
  auto teams_for = [&](uint64_t ops) {
    const uint64_t teams = (ops + per_team - 1) / per_team;
    return static_cast<uint32_t>((teams + warps_per_block - 1) / warps_per_block * warps_per_block);
  };
  const uint64_t prefill = spec.range / 2;
  GfslConfig c;
  c.chunk = spec.chunk;
  c.fixes = structures::gfsl_fix::kAll;
  c.keys = static_cast<int64_t>(spec.range);
  c.ops_per_lane = spec.ops_per_lane;
  c.teams = std::max(teams_for(prefill), teams_for(spec.operations));
  // Room for every split: the keys at most, over half-full chunks, on every level, twice.
  const uint64_t keys_at_most = prefill + spec.operations * spec.insert / 100 + 1;
  c.pool_chunks = static_cast<uint32_t>(std::min<uint64_t>(4 * keys_at_most / ((spec.chunk - 2) / 2) + 4096, 0xF0000000ull));
  validate(c);
  DeviceMemory memory(gfsl_layout(c));
  {
    HostMemory image(gfsl_layout(c));
    gfsl_initialize(c, image);
    memory.upload(image);
  }
  const structures::gfsl view = gfsl_view(c, memory.pointers());
  DeviceBuffer<cuda_backend::device_faults> faults(1);
  const cuda_backend::device_context ctx{uint64_t(1) << 22, faults.p};
  std::unique_ptr<DeviceLog> log;
  if (spec.record) log = std::make_unique<DeviceLog>(c.teams, static_cast<uint32_t>(2 * per_team), core::clock_kind::global_timer);
  GfslBenchResult r;
  auto phase = [&](uint64_t count, bool fill, uint64_t& done) {
    const uint32_t teams = teams_for(count);
    thrust::device_vector<core::workload_op> ops(size_t(teams) * per_team);
    thrust::tabulate(thrust::device, ops.begin(), ops.end(),
                     bench_op{spec.range, count, spec.seed * 7919 + fill, spec.insert, spec.erase, fill});
    done = count;
    return launch_team_ops(view, thrust::raw_pointer_cast(ops.data()), teams, spec.ops_per_lane, log ? &log->view : nullptr,
                           ctx, warps_per_block * 32);
  };
  r.prefill_ms = phase(prefill, true, r.prefill_ops);
  r.mix_ms = phase(spec.operations, false, r.mix_ops);
  cuda_backend::device_faults f{};
  faults.to_host(&f);
  r.faults = f.count;
  if (log) r.log = log->to_host();
  r.memory = memory.to_host();
  const structures::gfsl host = gfsl_view(c, r.memory->pointers());
  r.chunks_used = *host.next_free;
  for (uint32_t l = 1; l < host.levels(); ++l)
    if (host.level_chunks[l]) r.height = l;
  r.config = c;
  return r;
}

}  // namespace warpcheck::gpu
