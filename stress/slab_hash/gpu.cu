#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/copy.h>
#include <thrust/tabulate.h>

#include <algorithm>
#include <cmath>

#include "models/detail/hash.hpp"
#include "stress/gpu/mix_bench.cuh"
#include "stress/slab_hash/gpu.hpp"

namespace warpcheck::gpu {

namespace {

using structures::slab_alloc;
using structures::slab_hash;

// A bijection on [0, 2^31): distinct indices give distinct keys, and no key
// reaches the empty and deleted markers.
__host__ __device__ uint32_t key_of_index(uint64_t i) {
  uint32_t x = static_cast<uint32_t>(i) & 0x7FFFFFFFu;
  x = (x * 0x2C1B3C6Du) & 0x7FFFFFFFu;
  x ^= x >> 13;
  x = (x * 0x297A2D39u) & 0x7FFFFFFFu;
  x ^= x >> 17;
  return x;
}

// One op of a benchmark phase; keys from disjoint index ranges:
// [0, n) built, [n, 2n) inserted by the mixes, [4n, ...) never present.
struct phase_op {
  uint64_t n;
  int phase;         // 0 build, 1 search present, 2 search absent, 3+ mix
  uint32_t percent[4];  // : insert new, delete existing, search existing, search absent
  uint64_t salt;
  __host__ __device__ core::workload_op operator()(uint64_t i) const {
    core::workload_op op;
    op.value = static_cast<int64_t>(i % 0xFFFFFFF0u) + 1;
    if (phase == 0) {
      op.kind = OpKind::Upsert;
      op.key = key_of_index(i);
      op.value = static_cast<int64_t>(i) + 1;
      return op;
    }
    if (phase == 1 || phase == 2) {
      op.kind = OpKind::Find;
      op.key = key_of_index(phase == 1 ? detail::splitmix64(i + salt) % n : 4 * n + i);
      op.value = 0;
      return op;
    }
    const uint32_t pick = static_cast<uint32_t>(detail::splitmix64(i ^ salt) % 100);
    if (pick < percent[0]) {
      op.kind = OpKind::Upsert;
      op.key = key_of_index(n + (i + salt) % n);
      op.value = static_cast<int64_t>(n + i + salt % 1000) + 1;
    } else if (pick < percent[0] + percent[1]) {
      op.kind = OpKind::Erase;
      op.key = key_of_index(detail::splitmix64(i + 7 * salt) % n);
      op.value = 0;
    } else {
      op.kind = OpKind::Find;
      op.key = key_of_index(pick < percent[0] + percent[1] + percent[2] ? detail::splitmix64(i + 3 * salt) % n : 4 * n + i);
      op.value = 0;
    }
    return op;
  }
};

uint64_t count_allocated(const DeviceMemory& table) {
  uint64_t n = 0;
  for (uint32_t w : table.copy<uint32_t>(2)) n += __builtin_popcount(w);  // the bitmaps
  return n;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

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
  constexpr uint32_t kMixes[3][4] = {{50, 50, 0, 0}, {20, 20, 30, 30}, {10, 10, 40, 40}};
  constexpr int kPhases = 6;
  const uint64_t n = spec.elements;
  SlabHashConfig c;
  c.ops_per_lane = 1;  // the paper's one operation per thread
  c.teams = static_cast<uint32_t>(n / 32);
  c.buckets = std::max<uint32_t>(1, static_cast<uint32_t>(double(n) / (15.0 * spec.slabs_per_bucket)));
  c.keys = slab_hash::kMaxKey + 1;
  // Room for the build and the mixes' inserts at twice the expected slabs.
  const uint64_t slabs_needed = 2 * (2 * n / 15 + c.buckets) + 1024 * 16;
  c.blocks_per_super = static_cast<uint32_t>(std::min<uint64_t>((slabs_needed + 1023) / 1024, 1u << 14));
  c.super_blocks = 1;
  validate(c);
  if (n % 256) throw std::invalid_argument("bench: elements must be a multiple of 256");

  DeviceMemory table(slab_hash_layout(c));
  DeviceBuffer<cuda_backend::device_faults> faults(1);
  const cuda_backend::device_context ctx{uint64_t(1) << 22, faults.p};
  thrust::device_vector<core::workload_op> ops(n);
  std::unique_ptr<DeviceLog> log;
  // Every lane of every warp records one operation per phase.
  if (spec.record) log = std::make_unique<DeviceLog>(c.teams, 32 * c.ops_per_lane * kPhases, core::clock_kind::global_timer);

  std::vector<std::vector<double>> ms(kPhases);
  SlabHashBenchResult r;
  r.buckets = c.buckets;
  const slab_hash view = slab_hash_view(c, spec.seed, table.pointers());
  for (uint32_t rep = 0; rep < std::max(spec.repeats, 1u); ++rep) {
    table.reset();
    faults.zero();
    if (log) log->reset();
    for (int phase = 0; phase < kPhases; ++phase) {
      phase_op gen{n, phase, {0, 0, 0, 0}, spec.seed * 1000 + rep};
      if (phase >= 3) std::copy(kMixes[phase - 3], kMixes[phase - 3] + 4, gen.percent);
      thrust::tabulate(thrust::device, ops.begin(), ops.end(), gen);
      ms[phase].push_back(launch_team_ops(view, thrust::raw_pointer_cast(ops.data()), c.teams, 1,
                                          log ? &log->view : nullptr, ctx));
      if (phase == 0) {
        r.slabs_allocated = count_allocated(table);
        r.utilization = double(n) * 8 / (double(c.buckets + r.slabs_allocated) * 128);
      }
    }
  }
  r.build_ms = median(ms[0]);
  r.search_present_ms = median(ms[1]);
  r.search_absent_ms = median(ms[2]);
  for (int m = 0; m < 3; ++m) r.mix_ms.push_back(median(ms[3 + m]));
  cuda_backend::device_faults f{};
  faults.to_host(&f);
  r.faults = f.count;
  if (log) r.log = log->to_host();
  const auto host = table.to_host();
  r.invariant_violations = check_slab_hash_invariants(slab_hash_view(c, spec.seed, host->pointers()));
  return r;
}

SlabHashMixResult run_slab_hash_mix_bench(const MixBenchSpec& spec, double slabs_per_bucket) {
  SlabHashConfig c;
  c.ops_per_lane = spec.ops_per_lane;
  c.teams = spec.teams();
  c.keys = static_cast<int64_t>(spec.range);
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
  r.invariant_violations = check_slab_hash_invariants(slab_hash_view(c, spec.seed, host->pointers()));
  return r;
}

}  // namespace warpcheck::gpu
