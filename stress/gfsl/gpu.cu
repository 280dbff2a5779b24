#include <algorithm>

#include "stress/gfsl/gpu.hpp"
#include "stress/gpu/mix_bench.cuh"

namespace warpcheck::gpu {

GpuRun run_gfsl(const GfslConfig& c, const std::vector<core::workload_op>& ops, uint64_t spin_bound,
                const Perturbation& perturbation, core::clock_kind clock) {
  validate(c);
  HostMemory image(gfsl_layout(c));
  gfsl_initialize(c, image);
  return run_warp_structure(
      gfsl_layout(c), [&](ArrayPointers a) { return gfsl_view(c, a); }, ops, c.teams, c.ops_per_lane,
      c.log_capacity ? c.log_capacity : 32 * c.ops_per_lane, clock, spin_bound, &image, prefill_ops(c, OpKind::Insert),
      perturbation);
}

GfslBenchResult run_gfsl_bench(const GfslBenchSpec& spec) {
  const MixBenchSpec& mix = spec.mix;
  GfslConfig c;
  c.chunk = spec.chunk;
  c.fixes = structures::gfsl_fix::kAll;
  c.validation_tries = spec.validation_tries;
  c.keys = static_cast<int64_t>(mix.key_bound());
  c.ops_per_lane = mix.ops_per_lane;
  c.teams = mix.teams();
  // Room for every split: the keys at most, over half-full chunks, on every level, twice.
  const uint64_t keys_at_most = mix.prefill() + mix.operations * mix.insert / 100 + 1;
  c.pool_chunks = static_cast<uint32_t>(std::min<uint64_t>(4 * keys_at_most / ((spec.chunk - 2) / 2) + 4096, 0xF0000000ull));
  validate(c);
  DeviceMemory memory(gfsl_layout(c));
  {
    HostMemory image(gfsl_layout(c));
    gfsl_initialize(c, image);
    memory.upload(image);
  }
  GfslBenchResult r;
  r.times = run_mix_bench(gfsl_view(c, memory.pointers()), mix, OpKind::Insert);
  r.memory = memory.to_host();
  r.device_bases = memory.addresses();
  const structures::gfsl host = gfsl_view(c, r.memory->pointers());
  r.chunks_used = *host.next_free;
  for (uint32_t l = 1; l < host.levels(); ++l)
    if (host.level_chunks[l]) r.height = l;
  r.config = c;
  return r;
}

}  // namespace warpcheck::gpu
