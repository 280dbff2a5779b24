// The generalized heap on the GPU: one block a team, the team's scratch in
// shared memory. Stress runs (recorded with the ticket clock, copied back,
// invariants checked on the host) and the paper's benchmarks.
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/tabulate.h>

#include <algorithm>

#include "stress/gpu/device_buffer.cuh"
#include "stress/heap/gpu.hpp"
#include "structures/core/cuda/block_team.cuh"

namespace warpcheck::gpu {

namespace {

using structures::generalized_heap;

// Perturb: the team perturbs, the blocks in front hammer, the workers are
// counted out (structures/core/cuda/perturbation.cuh).
template <bool Record, bool Perturb = false>
__global__ void heap_ops_kernel(generalized_heap h, const core::workload_op* ops, uint32_t per_team, uint64_t first_slot,
                                structures::heap_keys keys, history_log log, cuda_backend::device_context ctx) {
  extern __shared__ uint32_t scratch[];
  if constexpr (Perturb)
    if (cuda_backend::perturb_hammer_block(ctx.perturb, &ctx.faults->count)) return;
  const cuda_backend::perturb_worker_exit<Perturb> leaving(ctx.perturb);
  cuda_backend::basic_block_team<Perturb> t(ctx);
  const uint32_t team = t.team_id();
  structures::run_team_heap_ops(t, h, {ops + size_t(team) * per_team, per_team, first_slot + uint64_t(team) * per_team},
                                scratch, keys, Record ? &log : nullptr);
}

size_t heap_shared_bytes(const generalized_heap& h) { return sizeof(uint32_t) * generalized_heap::kScratchBatches * h.k; }

// Launches `teams` blocks of `lanes` threads over `ops` (per_team each);
// returns the kernel's time in ms.
float launch_heap_ops(const generalized_heap& h, const core::workload_op* ops, uint32_t teams, uint32_t lanes,
                      uint32_t per_team, uint64_t first_slot, const structures::heap_keys& keys, const history_log* log,
                      const cuda_backend::device_context& ctx) {
  const size_t shared = heap_shared_bytes(h);
  auto kernel = log ? heap_ops_kernel<true> : heap_ops_kernel<false>;
  if (shared > 48 * 1024) check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)), "shared memory");
  return timed_launch([&] { kernel<<<teams, lanes, shared>>>(h, ops, per_team, first_slot, keys, log ? *log : history_log{}, ctx); });
}

// The same, recorded and perturbed (the launch planned from the recipe and
// the seed: the block permutation, hammer blocks, an occupancy limit; a
// block is a team, so its size stays).
float launch_perturbed_heap_ops(const generalized_heap& h, const core::workload_op* ops, uint32_t teams, uint32_t lanes,
                                uint32_t per_team, const structures::heap_keys& keys, const history_log& log,
                                cuda_backend::device_context ctx, const Perturbation& pert,
                                const std::vector<cuda_backend::hot_region>& hot, std::string& launch) {
  const size_t shared = heap_shared_bytes(h);
  auto kernel = heap_ops_kernel<true, true>;
  if (shared > 48 * 1024) check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)), "shared memory");
  DeviceBuffer<uint32_t> done(1);
  const PerturbedLaunch plan = plan_perturbed_launch(kernel, pert, {{lanes, teams}}, shared, teams, hot, done.p);
  ctx.perturb = plan.params;
  launch = plan.describe();
  return timed_launch([&] { kernel<<<plan.blocks, plan.threads, plan.shared_bytes>>>(h, ops, per_team, 0, keys, log, ctx); });
}

// A phase of the benchmarks: every team runs `per_team` operations of one
// kind (pushes of k keys, or pops), or pairs of a push and a pop.
struct bench_op {
  int kind;  // 0 push, 1 pop, 2 push-pop pairs
  uint32_t k;
  __host__ __device__ core::workload_op operator()(uint64_t i) const {
    core::workload_op op;
    const bool push = kind == 0 || (kind == 2 && i % 2 == 0);
    op.kind = push ? OpKind::Push : OpKind::Pop;
    op.key = push ? k : 0;
    op.value = int64_t(i) + 1;
    return op;
  }
};

}  // namespace

GpuRun run_heap(const HeapConfig& c, const std::vector<core::workload_op>& ops, uint64_t spin_bound, const Perturbation& perturbation,
                core::clock_kind clock) {
  validate(c);
  if (ops.size() != size_t(c.teams) * c.ops_per_team) throw std::invalid_argument("gpu: heap workload size does not fit the shape");
  const auto device_ops = to_device(ops);
  DeviceMemory memory(heap_layout(c), perturbation.recipe.apart);
  const uint32_t records = (c.log_capacity ? c.log_capacity : c.ops_per_team) + c.prefill;
  DeviceLog log(c.teams, records, clock, records * c.k);
  DeviceBuffer<cuda_backend::device_faults> faults(1);
  const cuda_backend::device_context ctx{spin_bound, faults.p};
  const generalized_heap view = heap_view(c, memory.pointers());
  const structures::heap_keys keys = heap_key_source(c);
  GpuRun run;
  if (c.prefill) {  // block 0 alone first: a kernel boundary is an exact cut
    const auto fill = to_device(heap_prefill_ops(c));
    launch_heap_ops(view, thrust::raw_pointer_cast(fill.data()), 1, c.lanes, c.prefill, uint64_t(c.teams) * c.ops_per_team,
                    keys, &log.view, ctx);
  }
  if (perturbation.launch())
    run.kernel_ms = launch_perturbed_heap_ops(view, thrust::raw_pointer_cast(device_ops.data()), c.teams, c.lanes, c.ops_per_team,
                                              keys, log.view, ctx, perturbation, hot_regions(heap_layout(c), memory.pointers()),
                                              run.launch);
  else
    run.kernel_ms = launch_heap_ops(view, thrust::raw_pointer_cast(device_ops.data()), c.teams, c.lanes, c.ops_per_team, 0,
                                    keys, &log.view, ctx);
  faults.to_host(&run.faults);
  run.log = log.to_host();
  run.memory = memory.to_host();
  run.device_bases = memory.addresses();
  return run;
}

HeapBenchResult run_heap_bench(const HeapBenchSpec& spec) {
  HeapConfig c;
  c.variant = spec.variant;
  c.fixes = spec.fixes;
  c.teams = spec.blocks;
  c.lanes = spec.threads;
  c.k = spec.k;
  c.narrow_keys = 0x7FFFFFFF;  // random 31-bit keys, duplicates allowed (the paper's random 32-bit ints)
  const uint64_t pushes = spec.keys / spec.k, prefill_pushes = spec.prefill_nodes;
  if (spec.keys % (uint64_t(spec.k) * spec.blocks)) throw std::invalid_argument("bench: keys must be a multiple of k x blocks");
  // The prefill runs on as many blocks as divide it evenly (a power of two up to `blocks`).
  uint32_t prefill_blocks = spec.blocks;
  while (prefill_blocks > 1 && prefill_pushes % prefill_blocks) prefill_blocks /= 2;
  const uint64_t pair_ops = uint64_t(spec.pairs_per_block) * 2;
  c.ops_per_team = static_cast<uint32_t>(std::max<uint64_t>({pushes / spec.blocks, prefill_pushes / prefill_blocks, pair_ops, 1}));
  c.capacity = static_cast<uint32_t>(pushes + prefill_pushes + uint64_t(spec.blocks) * spec.pairs_per_block + spec.blocks + 1);
  validate(c);
  structures::heap_keys keys = heap_key_source(c);
  keys.order = spec.order;
  keys.teams = spec.blocks;
  DeviceMemory heap(heap_layout(c));
  DeviceBuffer<cuda_backend::device_faults> faults(1);
  // The root lock is unfair: with 128 blocks at it, one block can wait far
  // longer than a quarter second (2^20 backed-off spins gave false faults
  // on an H100 at 2^26 keys). 2^24 spins took about 8.6 s on an H200.
  const cuda_backend::device_context ctx{spec.spin_bound, faults.p};
  const generalized_heap view = heap_view(c, heap.pointers());
  std::unique_ptr<DeviceLog> log;
  const uint64_t ops_total = pushes * 2 + prefill_pushes + uint64_t(spec.blocks) * pair_ops;
  if (spec.record)
    log = std::make_unique<DeviceLog>(spec.blocks, static_cast<uint32_t>(ops_total / spec.blocks + 1), core::clock_kind::ticket,
                                      static_cast<uint32_t>((ops_total / spec.blocks + 1) * spec.k));
  const history_log* lv = log ? &log->view : nullptr;
  thrust::device_vector<core::workload_op> ops(size_t(c.ops_per_team) * spec.blocks);
  auto phase = [&](int kind, uint32_t teams, uint32_t per_team, uint64_t slot_base) {
    thrust::tabulate(thrust::device, ops.begin(), ops.begin() + size_t(per_team) * teams, bench_op{kind, spec.k});
    keys.teams = teams;
    keys.per_team = per_team;
    return launch_heap_ops(view, thrust::raw_pointer_cast(ops.data()), teams, spec.threads, per_team, slot_base, keys, lv, ctx);
  };
  HeapBenchResult r;
  uint64_t slot = 0;
  if (prefill_pushes) {
    r.prefill_ms = phase(0, prefill_blocks, static_cast<uint32_t>(prefill_pushes / prefill_blocks), slot);
    slot += prefill_pushes;
  }
  if (pushes) {
    r.insert_ms = phase(0, spec.blocks, static_cast<uint32_t>(pushes / spec.blocks), slot);
    slot += pushes;
    r.delete_ms = phase(1, spec.blocks, static_cast<uint32_t>(pushes / spec.blocks), slot);
    slot += pushes;
  }
  if (spec.pairs_per_block) r.pairs_ms = phase(2, spec.blocks, static_cast<uint32_t>(pair_ops), slot);
  cuda_backend::device_faults f{};
  faults.to_host(&f);
  r.faults = f.count;
  r.first_fault = f;
  r.device_bases = heap.addresses();
  if (log) r.log = log->to_host();
  r.memory = heap.to_host();
  r.config = c;
  return r;
}

}  // namespace warpcheck::gpu
