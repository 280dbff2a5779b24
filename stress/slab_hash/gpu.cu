#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/copy.h>
#include <thrust/tabulate.h>

#include <algorithm>
#include <cmath>

#include "models/base/median.hpp"
#include "models/base/splitmix.hpp"
#include "stress/gpu/mix_bench.cuh"
#include "stress/recorder/batch_history.hpp"
#include "stress/slab_hash/bench_ops.hpp"
#include "stress/slab_hash/gpu.hpp"
#include "structures/core/bulk_driver.hpp"
#include "structures/slab_hash/slab_hash_invariants.hpp"

namespace warpcheck::gpu {

namespace {

using structures::slab_alloc;
using structures::slab_hash;

namespace sb = slab_bench;

// Phase operations as workload_ops (the generic driver).
struct phase_workload_op {
  sb::phase_gen gen;
  OpKind insert_kind;
  __host__ __device__ core::workload_op operator()(uint64_t i) const {
    const sb::bench_op b = gen(i);
    core::workload_op op;
    op.kind = b.code == sb::kInsert ? insert_kind : b.code == sb::kErase ? OpKind::Erase : OpKind::Find;
    op.key = b.key;
    op.value = b.code == sb::kInsert ? b.value : 0;
    return op;
  }
};

// Phase operations in struct-of-arrays (the bulk driver).
__global__ void fill_bulk_phase(sb::phase_gen gen, OpKind insert_kind, uint64_t count, uint32_t* keys, uint32_t* values,
                                uint8_t* kinds) {
  const uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (i >= count) return;
  const sb::bench_op b = gen(i);
  keys[i] = b.key;
  values[i] = b.code == sb::kInsert ? b.value : 0;
  kinds[i] = static_cast<uint8_t>(b.code == sb::kInsert ? insert_kind : b.code == sb::kErase ? OpKind::Erase : OpKind::Find);
}

// Searches of phase 1 must all find their key, of phase 2 none.
__global__ void count_wrong(const uint32_t* out, uint64_t count, bool present, unsigned long long* wrong) {
  const uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (i < count && (out[i] == core::kNoValue) == present) atomicAdd(wrong, 1ull);
}

// Record: 0 none, 1 per operation (history_log), 2 per warp batch (batch_log).
// Bounded: at most 32 registers a thread (a full SM: 2,048 threads, as the
// public kernels, which need 17 to 29), at the price of a few spilled
// words; otherwise as many as the compiler wants (40 to 64: fewer warps an
// SM). Blocks of at most 256 threads.
constexpr uint32_t kMaxBulkBlock = 256;
template <uint32_t K, int Record, bool Bounded, class S>
__global__ void __launch_bounds__(kMaxBulkBlock, Bounded ? 2048 / kMaxBulkBlock : 1)
    bulk_kernel(S s, core::bulk_input in, uint32_t* out, history_log log, batch_log batch, cuda_backend::device_context ctx) {
  cuda_backend::warp_team t(ctx);
  const uint64_t first = uint64_t(t.team_id()) * 32 * K;
  if (first >= in.count) return;  // whole warps only: blocks are multiples of 32 threads
  core::run_team_bulk<K>(t, s, in, first, out, Record == 1 ? &log : nullptr, Record == 2 ? &batch : nullptr);
}

struct bulk_launch {
  core::bulk_input in;
  uint32_t* out;
  const history_log* log;
  const batch_log* batch;
  cuda_backend::device_context ctx;
  uint32_t threads;
};

template <uint32_t K, bool Bounded, class S>
float launch_bulk_k(const S& s, const bulk_launch& l) {
  const uint64_t warps = (l.in.count + 32 * K - 1) / (32 * K);
  const uint32_t blocks = static_cast<uint32_t>((warps * 32 + l.threads - 1) / l.threads);
  return timed_launch([&] {
    if (l.batch) bulk_kernel<K, 2, Bounded><<<blocks, l.threads>>>(s, l.in, l.out, history_log{}, *l.batch, l.ctx);
    else if (l.log) bulk_kernel<K, 1, Bounded><<<blocks, l.threads>>>(s, l.in, l.out, *l.log, batch_log{}, l.ctx);
    else bulk_kernel<K, 0, Bounded><<<blocks, l.threads>>>(s, l.in, l.out, history_log{}, batch_log{}, l.ctx);
  });
}

template <bool Bounded, class S>
float launch_bulk_b(uint32_t per_lane, const S& s, const bulk_launch& l) {
  switch (per_lane) {
    case 1: return launch_bulk_k<1, Bounded>(s, l);
    case 2: return launch_bulk_k<2, Bounded>(s, l);
    default: throw std::invalid_argument("bench: per-lane must be 1 or 2");
  }
}

template <class S>
float launch_bulk_s(bool bounded, uint32_t per_lane, const S& s, const bulk_launch& l) {
  return bounded ? launch_bulk_b<true>(per_lane, s, l) : launch_bulk_b<false>(per_lane, s, l);
}

// The mode fixed at compile time (structures::slab_hash_fixed), rounds
// served in tiles of Tile lanes (16 or 8), or one operation at a time (0).
// launch: slab_hash::kReadOnlyLaunch (the launch holds only searches and
// nothing writes the table beside it: a search phase, stream-ordered after
// the launches before it), slab_hash::kInsertOnlyLaunch (the build) or 0.
template <int Launch, uint32_t Tile>
float launch_bulk_l(bool bounded, uint32_t per_lane, const slab_hash& s, const bulk_launch& l) {
  using structures::slab_hash_fixed;
  using structures::slab_hash_mode;
  if (s.mode == slab_hash_mode::map) return launch_bulk_s(bounded, per_lane, slab_hash_fixed<slab_hash_mode::map, Launch, Tile>{s}, l);
  return launch_bulk_s(bounded, per_lane, slab_hash_fixed<slab_hash_mode::multimap, Launch, Tile>{s}, l);
}
template <uint32_t Tile>
float launch_bulk_fixed(int launch, bool bounded, uint32_t per_lane, const slab_hash& s, const bulk_launch& l) {
  if (launch == slab_hash::kReadOnlyLaunch) return launch_bulk_l<slab_hash::kReadOnlyLaunch, Tile>(bounded, per_lane, s, l);
  if (launch == slab_hash::kInsertOnlyLaunch) return launch_bulk_l<slab_hash::kInsertOnlyLaunch, Tile>(bounded, per_lane, s, l);
  return launch_bulk_l<0, Tile>(bounded, per_lane, s, l);
}
// fixed: the mode fixed at compile time, when no bug is planted and every
// fix is on (or all but delete_guard: --guard off); otherwise
// read from the table's fields (one operation at a time).
float launch_bulk(bool fixed, uint32_t tile, int launch, bool bounded, uint32_t per_lane, const slab_hash& s, const bulk_launch& l) {
  using structures::slab_hash_mode;
  namespace fix = structures::slab_hash_fix;
  const bool every_fix = s.fixes == fix::kAll, all_but_guard = s.fixes == (fix::kAll & ~fix::delete_guard);
  if (fixed && tile == 8 && s.mode == slab_hash_mode::multimap && s.mutant == structures::slab_hash_mutant::none && all_but_guard) {
    // --guard off: only a launch with deletes and searches together has a guard to leave out.
    if (launch == 0)
      return launch_bulk_s(bounded, per_lane,
                           structures::slab_hash_fixed<slab_hash_mode::multimap, slab_hash::kWithoutDeleteGuard, 8>{s}, l);
    return launch_bulk_fixed<8>(launch, bounded, per_lane, s, l);
  }
  if (fixed && tile == 8 && s.mode == slab_hash_mode::multimap && s.mutant == structures::slab_hash_mutant::none && every_fix &&
      s.guard_order == structures::slab_guard_order::acquire && launch == 0)  // --guard-order acquire: the guarded launches
    return launch_bulk_s(bounded, per_lane, structures::slab_hash_fixed<slab_hash_mode::multimap, slab_hash::kGuardAcquireLoads, 8>{s}, l);
  if (fixed && s.mutant == structures::slab_hash_mutant::none && every_fix) {
    if (tile == 16) return launch_bulk_fixed<16>(launch, bounded, per_lane, s, l);
    if (tile == 8) return launch_bulk_fixed<8>(launch, bounded, per_lane, s, l);
    if (tile == 0) return launch_bulk_fixed<0>(launch, bounded, per_lane, s, l);
    throw std::invalid_argument("bench: tiles are 16 or 8 lanes, or none (0)");
  }
  return launch_bulk_s(bounded, per_lane, s, l);
}

uint64_t count_allocated(const DeviceMemory& table) {
  uint64_t n = 0;
  for (uint32_t w : table.copy<uint32_t>(2)) n += __builtin_popcount(w);  // the bitmaps
  return n;
}

using detail::median;

}  // namespace

GpuRun run_slab_hash(const SlabHashConfig& c, uint64_t seed, const std::vector<core::workload_op>& ops, uint64_t spin_bound,
                     const Perturbation& perturbation, core::clock_kind clock) {
  validate(c);
  return run_warp_structure(
      slab_hash_layout(c), [&](ArrayPointers a) { return slab_hash_view(c, seed, a); }, ops, c.teams, c.ops_per_lane,
      c.log_capacity ? c.log_capacity : 32 * c.ops_per_lane, clock, spin_bound, nullptr,
      prefill_ops(c, slab_hash_op_kinds(c.mode).insert), perturbation);
}

SlabHashBenchResult run_slab_hash_bench(const SlabHashBenchSpec& spec) {
  constexpr int kPhases = sb::kPhases;
  const uint64_t n = spec.elements;
  const bool bulk = spec.driver == SlabBenchDriver::bulk;
  const uint32_t per_lane = bulk ? spec.per_lane : 1;
  if (n % 256 || n == 0 || n > sb::kMaxElements)  // six phases' keys fit the public code's 30 bits
    throw std::invalid_argument("bench: elements must be a positive multiple of 256, at most 2^27");
  if (!bulk && spec.record == SlabBenchRecord::per_batch)
    throw std::invalid_argument("bench: per-batch recording needs the bulk driver");
  if (spec.unguarded && (!bulk || !spec.fixed_mode || spec.tile != 8 || spec.mode != structures::slab_hash_mode::multimap ||
                         spec.record != SlabBenchRecord::off))
    throw std::invalid_argument("bench: --guard off is the bulk driver's multimap, mode fixed, tiles of 8, recording off");
  if (spec.guard_order == structures::slab_guard_order::acquire &&
      (spec.unguarded || !bulk || !spec.fixed_mode || spec.tile != 8 || spec.mode != structures::slab_hash_mode::multimap))
    throw std::invalid_argument("bench: --guard-order acquire is the bulk driver's multimap, mode fixed, tiles of 8, with the guard");
  if (bulk && (spec.block % 32 || spec.block == 0 || spec.block > kMaxBulkBlock))
    throw std::invalid_argument("bench: block must be a multiple of 32 up to 256");
  SlabHashConfig c;
  c.ops_per_lane = per_lane;
  c.teams = static_cast<uint32_t>((n + 32 * per_lane - 1) / (32 * per_lane));
  c.buckets = sb::buckets_for(n, spec.slabs_per_bucket);
  c.keys = slab_hash::kMaxKey + 1;
  c.mode = spec.mode;
  // Room for the build and the mixes' inserts at twice the expected slabs.
  const uint64_t slabs_needed = 2 * (2 * n / 15 + c.buckets) + 1024 * 16;
  c.blocks_per_super = static_cast<uint32_t>(std::min<uint64_t>((slabs_needed + 1023) / 1024, 1u << 14));
  c.super_blocks = 1;
  validate(c);
  const OpKind insert_kind = slab_hash_op_kinds(spec.mode).insert;

  DeviceMemory table(slab_hash_layout(c));
  DeviceBuffer<cuda_backend::device_faults> faults(1);
  const cuda_backend::device_context ctx{uint64_t(1) << 22, faults.p};
  // The generic driver's workload, or the bulk driver's arrays.
  thrust::device_vector<core::workload_op> ops(bulk ? 0 : n);
  DeviceBuffer<uint32_t> keys(bulk ? n : 0), values(bulk ? n : 0), out(bulk ? n : 0);
  DeviceBuffer<uint8_t> kinds(bulk ? n : 0);
  DeviceBuffer<unsigned long long> wrong(1);
  // Recording: one log for every phase of a table.
  std::unique_ptr<DeviceLog> log;
  if (spec.record == SlabBenchRecord::per_op)
    log = std::make_unique<DeviceLog>(c.teams, 32 * per_lane * kPhases, core::clock_kind::global_timer);
  std::unique_ptr<DeviceBuffer<uint64_t>> stamps, results;
  if (spec.record == SlabBenchRecord::per_batch) {
    stamps = std::make_unique<DeviceBuffer<uint64_t>>(size_t(2) * c.teams * kPhases);
    results = std::make_unique<DeviceBuffer<uint64_t>>(size_t(n) * kPhases);
  }

  std::vector<std::vector<double>> ms(kPhases);
  SlabHashBenchResult r;
  r.buckets = c.buckets;
  slab_hash view = slab_hash_view(c, spec.seed, table.pointers());
  if (spec.unguarded) view.fixes &= ~structures::slab_hash_fix::delete_guard;
  view.guard_order = spec.guard_order;
  const uint32_t tables = std::max(spec.repeats, 1u) + spec.warmup;
  const uint32_t fill_blocks = static_cast<uint32_t>((n + 255) / 256);
  uint64_t last_salt = 0;
  for (uint32_t rep = 0; rep < tables; ++rep) {
    const bool last = rep + 1 == tables, timed = rep >= spec.warmup;
    table.reset();
    faults.zero();
    if (log) log->reset();
    if (stamps) {
      stamps->fill_bytes(0xFF);  // kNoStamp
      results->zero();           // not done
    }
    wrong.zero();
    const uint64_t salt = spec.seed * 1000 + rep;
    last_salt = salt;
    for (int phase = 0; phase < kPhases; ++phase) {
      const sb::phase_gen gen{n, phase, salt};
      float t = 0;
      if (!bulk) {
        thrust::tabulate(thrust::device, ops.begin(), ops.end(), phase_workload_op{gen, insert_kind});
        t = launch_team_ops(view, thrust::raw_pointer_cast(ops.data()), c.teams, 1, log ? &log->view : nullptr, ctx);
      } else {
        fill_bulk_phase<<<fill_blocks, 256>>>(gen, insert_kind, n, keys.p, values.p, kinds.p);
        check(cudaGetLastError(), "fill");
        core::bulk_input in;
        in.keys = keys.p;
        in.count = n;
        if (phase == 1 || phase == 2) {
          in.kind = OpKind::Find;  // a search phase reads only keys, as the public one does
        } else if (phase == 0) {
          in.kind = insert_kind;
          in.values = values.p;
        } else {
          in.values = values.p;
          in.kinds = kinds.p;
        }
        batch_log b;
        if (stamps) {
          b.stamps = stamps->p + size_t(2) * c.teams * phase;
          b.results = results->p + size_t(n) * phase;
        }
        const int launch = !spec.phase_kernels ? 0
                           : phase == 1 || phase == 2 ? slab_hash::kReadOnlyLaunch
                           : phase == 0              ? slab_hash::kInsertOnlyLaunch
                                                     : 0;
        t = launch_bulk(spec.fixed_mode, spec.tile, launch, spec.bounded_registers, per_lane, view,
                        {in, out.p, log ? &log->view : nullptr, stamps ? &b : nullptr, ctx, spec.block});
        if (phase == 1 || phase == 2) {
          count_wrong<<<fill_blocks, 256>>>(out.p, n, phase == 1, wrong.p);
          check(cudaGetLastError(), "count");
        }
      }
      if (timed) ms[phase].push_back(t);
      if (phase == 0 && last) {
        r.slabs_allocated = count_allocated(table);
        r.utilization = double(n) * 8 / (double(c.buckets + r.slabs_allocated) * 128);
      }
    }
  }
  check(cudaDeviceSynchronize(), "bench");
  for (int phase = 0; phase < kPhases; ++phase) r.phase_ms.push_back(median(ms[phase]));
  r.build_ms = r.phase_ms[0];
  r.search_present_ms = r.phase_ms[1];
  r.search_absent_ms = r.phase_ms[2];
  for (int m = 0; m < 3; ++m) r.mix_ms.push_back(r.phase_ms[3 + m]);
  cuda_backend::device_faults f{};
  faults.to_host(&f);
  r.faults = f.count;
  unsigned long long w = 0;
  wrong.to_host(&w);
  r.wrong_answers = w;
  if (log) r.log = log->to_host();
  if (stamps) {
    std::vector<uint64_t> st, res;
    stamps->to_host(st);
    results->to_host(res);
    r.log = std::make_unique<HostLog>(c.teams, 32 * per_lane * kPhases);
    for (int phase = 0; phase < kPhases; ++phase) {
      const sb::phase_gen gen{n, phase, last_salt};
      const phase_workload_op input{gen, insert_kind};
      append_batch_launch(*r.log, {per_lane, n, st.data() + size_t(2) * c.teams * phase, res.data() + size_t(n) * phase},
                          [&](uint64_t i) { return input(i); });
    }
  }
  if (spec.invariants) {
    const auto host = table.to_host();
    r.invariant_violations = structures::slab_hash_invariants(slab_hash_view(c, spec.seed, host->pointers()));
  }
  return r;
}

SlabHashMixResult run_slab_hash_mix_bench(const MixBenchSpec& spec, double slabs_per_bucket) {
  SlabHashConfig c;
  c.ops_per_lane = spec.ops_per_lane;
  c.teams = spec.teams();
  c.keys = static_cast<int64_t>(spec.key_bound());
  c.buckets = std::max<uint32_t>(1, static_cast<uint32_t>(double(spec.prefill()) / (15.0 * slabs_per_bucket)));
  // Room for every insert at twice the expected slabs (deletes leave tombstones).
  const uint64_t inserted = spec.prefill() + spec.operations * spec.insert / 100;
  const uint64_t slabs_needed = 2 * (inserted / 15 + c.buckets) + 1024 * 16;
  c.blocks_per_super = static_cast<uint32_t>(std::min<uint64_t>((slabs_needed + 1023) / 1024, 1u << 14));
  validate(c);
  DeviceMemory table(slab_hash_layout(c));
  SlabHashMixResult r;
  r.times = run_mix_bench(slab_hash_view(c, spec.seed, table.pointers()), spec, OpKind::Upsert);
  const auto host = table.to_host();
  r.invariant_violations = structures::slab_hash_invariants(slab_hash_view(c, spec.seed, host->pointers()));
  return r;
}

}  // namespace warpcheck::gpu
