// The slab hash benchmark's operations (stress/slab_hash/gpu.cu), shared
// with the comparison against the public SlabHash (bench/ext/
// slab_hash_public_bench.cu) so that both tables are built from the same
// keys and run the same searches and mixes, operation for operation.
//
// Phases on `n` distinct keys (indices: [0, n) built, [n, 4n) inserted by
// the mixes, [5n, 6n) never present; so n < 2^30 / 6):
//   0 build: insert key i with value i + 1
//   1 search present: a key of [0, n), drawn
//   2 search absent: key 5n + i
//   3+ a mix (insert new, delete existing, search existing, search absent)
//      in percent; deletes and existing searches draw from [0, n). Mix m
//      (0, 1, 2) inserts keys of [(m + 1)n, (m + 2)n), each at most once: no insert
//      meets its key present, so an upsert (our map's REPLACE), an insert
//      if absent (the public insertPairUnique) and an insert that allows
//      duplicates (INSERT, insertPair) do the same to the table, and each
//      is compared with its own contract's counterpart (no mix re-inserts
//      what an earlier one inserted, as the mixes before issue 32 did).
// Keys are a bijection of the index on [0, 2^30): the public concurrent
// benchmark packs its op code into the key's two top bits.
#pragma once
#include <cstdint>

#include "models/base/splitmix.hpp"
#include "structures/core/config.hpp"

namespace warpcheck::gpu::slab_bench {

// The public batched kernel's op codes (bits 30-31 of its 32-bit words).
enum : uint8_t { kInsert = 1, kErase = 2, kSearch = 3 };

WC_HD inline uint32_t key_of_index(uint64_t i) {
  constexpr uint32_t kMask = (1u << 30) - 1;
  uint32_t x = static_cast<uint32_t>(i) & kMask;
  x = (x * 0x2C1B3C6Du) & kMask;  // odd multipliers and right xor-shifts: bijections mod 2^30
  x ^= x >> 13;
  x = (x * 0x297A2D39u) & kMask;
  x ^= x >> 17;
  return x;
}

struct bench_op {
  uint8_t code;  // kInsert, kErase, kSearch
  uint32_t key, value;
};

// The mixes, in order: (.5,.5,0,0), (.2,.2,.3,.3), (.1,.1,.4,.4).
inline constexpr uint32_t kMixes[3][4] = {{50, 50, 0, 0}, {20, 20, 30, 30}, {10, 10, 40, 40}};
inline constexpr int kPhases = 6;  // build, search present, search absent, three mixes
inline constexpr uint64_t kMaxElements = uint64_t(1) << 27;  // 6n keys below 2^30
inline constexpr const char* kPhaseNames[kPhases] = {"build", "search_present", "search_absent", "mix_50_50_0_0",
                                                     "mix_20_20_30_30", "mix_10_10_40_40"};

struct phase_gen {
  uint64_t n;
  int phase;
  uint64_t salt;
  WC_HD bench_op operator()(uint64_t i) const {
    bench_op op{kSearch, 0, static_cast<uint32_t>(i % 0x3FFFFFF0u) + 1};
    if (phase == 0) {
      op.code = kInsert;
      op.key = key_of_index(i);
      return op;
    }
    if (phase == 1 || phase == 2) {
      op.key = key_of_index(phase == 1 ? detail::splitmix64(i + salt) % n : 5 * n + i);
      return op;
    }
    // kMixes[phase - 3] (a host array: spelled out for device code)
    const uint32_t percent[3] = {phase == 3 ? 50u : phase == 4 ? 20u : 10u, phase == 3 ? 50u : phase == 4 ? 20u : 10u,
                                 phase == 3 ? 0u : phase == 4 ? 30u : 40u};
    const uint32_t pick = static_cast<uint32_t>(detail::splitmix64(i ^ salt) % 100);
    if (pick < percent[0]) {
      op.code = kInsert;
      op.key = key_of_index(uint64_t(phase - 2) * n + (i + salt) % n);
      op.value = static_cast<uint32_t>((n + i + salt % 1000) % 0x3FFFFFF0u) + 1;
    } else if (pick < percent[0] + percent[1]) {
      op.code = kErase;
      op.key = key_of_index(detail::splitmix64(i + 7 * salt) % n);
    } else {
      op.key = key_of_index(pick < percent[0] + percent[1] + percent[2] ? detail::splitmix64(i + 3 * salt) % n : 5 * n + i);
    }
    return op;
  }
};

// Buckets for about `slabs_per_bucket` slabs a bucket once the n keys are in
// (15 pairs a slab); both benchmarks use this.
inline uint32_t buckets_for(uint64_t n, double slabs_per_bucket) {
  const double b = double(n) / (15.0 * slabs_per_bucket);
  return b < 1 ? 1u : static_cast<uint32_t>(b);
}

}  // namespace warpcheck::gpu::slab_bench
