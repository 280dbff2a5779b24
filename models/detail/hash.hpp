// Hash mixing for model states and memoization keys.
#pragma once

#include <cstdint>

namespace warpcheck::detail {

// splitmix64 finalizer: a bijection with good avalanche, cheap enough to run
// on every model step.
inline constexpr uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

inline constexpr uint64_t mix_pair(uint64_t a, uint64_t b) { return mix64(a ^ mix64(b + 0x632be59bd9b4e019ULL)); }

}  // namespace warpcheck::detail
