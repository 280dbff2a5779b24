// The benchmark's keys: pair i is (key_of_index(i), i + 1), and absent keys
// come from indices past the pairs. Shared with the cuCollections
// comparison (bench/ext) so both tables hold the same keys.
#pragma once
#include <cstdint>

#include "structures/core/config.hpp"

namespace warpcheck::gpu {

// A bijection on [0, 2^32): distinct indices, distinct keys.
WC_HD inline uint32_t key_of_index(uint64_t i) {
  uint32_t x = static_cast<uint32_t>(i);
  x ^= x >> 16;
  x *= 0x7FEB352Du;
  x ^= x >> 15;
  x *= 0x846CA68Bu;
  x ^= x >> 16;
  return x;
}

}  // namespace warpcheck::gpu
