// A mixed-operation benchmark for any warp structure (the setting of
// chapter 5 of Moscovici's thesis, a GPU-friendly skiplist): prefill half of a key range with distinct keys, then
// `operations` operations whose kinds follow a mix [insert, delete,
// contains] and whose keys are uniform on the range, in blocks of
// `warps_per_block` warps. Plain C++ (the operations, for the host and the
// device); the runner is in mix_bench.cuh.
#pragma once
#include <cstdint>
#include <memory>

#include "models/base/splitmix.hpp"
#include "structures/core/config.hpp"
#include "structures/core/cuda/device_faults.hpp"
#include "structures/core/recorder/host_log.hpp"
#include "structures/core/workload_op.hpp"

namespace warpcheck::gpu {

struct MixBenchSpec {
  uint64_t range = 1 << 20;
  uint64_t operations = 10'000'000;
  uint32_t insert = 10, erase = 10;  // percent; the rest are contains
  uint32_t warps_per_block = 16;
  uint32_t ops_per_lane = 8;
  bool record = false;
  uint64_t seed = 1;
  // Beside the thesis' workload, for trees with other contracts (issue 32,
  // bench/ext/btree_bench.cu): fresh_inserts, every insert's key is new
  // (range + a bijection of its slot: never prefilled, never inserted twice), so an upsert
  // and an insert-if-absent do the same (deletes and finds stay uniform on
  // the range); phases, the mix as three launches, its inserts, then its
  // deletes, then its finds, each in op order (a bulk-phase tree's contract).
  bool fresh_inserts = false;
  bool phases = false;
  uint32_t backoff_cap_ns = 256;  // cuda_backend::device_context's: a spin's longest back-off

  uint64_t prefill() const { return range / 2; }
  // fresh_inserts: new keys are range + a bijection of the slot on
  // [0, 2^fresh_bits), the least power of two that holds every slot.
  uint32_t fresh_bits() const {
    uint32_t b = 1;
    while ((uint64_t(1) << b) < operations) ++b;
    return b;
  }
  uint64_t key_bound() const { return range + (fresh_inserts ? uint64_t(1) << fresh_bits() : 0); }  // every key is below
  // Warps for `ops` operations, rounded up to whole blocks.
  uint32_t teams_for(uint64_t ops) const {
    const uint64_t per_team = uint64_t(32) * ops_per_lane;
    const uint64_t teams = (ops + per_team - 1) / per_team;
    return static_cast<uint32_t>((teams + warps_per_block - 1) / warps_per_block * warps_per_block);
  }
  uint32_t teams() const { return teams_for(prefill()) > teams_for(operations) ? teams_for(prefill()) : teams_for(operations); }
};

// One operation a slot: the prefill inserts half the range (a bijection of
// the slot on [0, range), so distinct keys), the mix draws kinds and keys
// uniformly. Values are slot + 1.
struct mix_bench_op {
  uint64_t range, count, seed;
  uint32_t insert, erase;  // percent; the rest contains
  OpKind insert_kind;      // the structure's insert (insert-if-absent, or upsert for a table that replaces)
  bool prefill;
  uint32_t fresh_bits = 0;  // MixBenchSpec::fresh_inserts: an insert's key is range + scatter(i), a bijection on [0, 2^fresh_bits)
  WC_HD uint64_t scatter(uint64_t i) const {
    // Odd multipliers and right xor-shifts: a bijection mod 2^bits that
    // spreads consecutive slots over the whole interval (consecutive new
    // keys would all land at a tree's right edge).
    const uint64_t mask = (uint64_t(1) << fresh_bits) - 1;
    uint64_t x = (i * 0x9E3779B97F4A7C15ull) & mask;
    x ^= x >> (fresh_bits / 2 + 1);
    return (x * 0xD1B54A32D192ED03ull) & mask;
  }
  WC_HD core::workload_op operator()(uint64_t i) const {
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
    op.key = static_cast<int64_t>(fresh_bits && op.kind == insert_kind ? range + scatter(i) : (h >> 20) % range);
    return op;
  }
};

struct op_kind_is {
  OpKind kind;
  WC_HD bool operator()(const core::workload_op& op) const { return op.active && op.kind == kind; }
};

// The prefill's (prefill) or the mix's operations of `spec`, `count` of
// them: what every structure on this benchmark runs, op for op (the public
// B-Trees too: bench/ext/btree_bench.cu).
inline mix_bench_op mix_bench_phase(const MixBenchSpec& spec, uint64_t count, bool prefill, OpKind insert_kind) {
  return {spec.range, count, spec.seed * 7919 + prefill, spec.insert, spec.erase, insert_kind, prefill,
          spec.fresh_inserts && !prefill ? spec.fresh_bits() : 0u};
}

struct MixBenchResult {
  double prefill_ms = 0, mix_ms = 0;
  uint64_t faults = 0;
  cuda_backend::device_faults first_fault{};  // the details of the first
  std::unique_ptr<HostLog> log;  // recording on: both launches (a kernel boundary is an exact cut)
};

}  // namespace warpcheck::gpu
