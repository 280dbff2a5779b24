// The project's one 64-bit mixer, for model states and memoization keys,
// seeded workloads, schedulers and hash functions, on the host and in
// device code alike.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define WARPCHECK_MIX_HD __host__ __device__
#else
#define WARPCHECK_MIX_HD
#endif

namespace warpcheck::detail {

inline constexpr uint64_t kGoldenGamma = 0x9e3779b97f4a7c15ULL;

// The splitmix64 finalizer (Steele, Lea, Flood): a bijection with good
// avalanche, cheap enough to run on every model step.
WARPCHECK_MIX_HD inline constexpr uint64_t splitmix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// One step of the splitmix64 generator from x: mixes 0 to a non-zero value.
WARPCHECK_MIX_HD inline constexpr uint64_t mix64(uint64_t x) { return splitmix64(x + kGoldenGamma); }

WARPCHECK_MIX_HD inline constexpr uint64_t mix_pair(uint64_t a, uint64_t b) {
  return mix64(a ^ mix64(b + 0x632be59bd9b4e019ULL));
}

}  // namespace warpcheck::detail
