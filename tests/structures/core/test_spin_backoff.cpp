// A GPU spin's back-off (structures/core/cuda/device_faults.hpp), the one
// function every structure's spins sleep by on the device: the default cap
// keeps the flat 256 ns the team layer always slept; a larger cap doubles
// every 8 iterations up to it and no further.
#include <gtest/gtest.h>

#include "structures/core/cuda/device_faults.hpp"

namespace warpcheck::cuda_backend {
namespace {

TEST(SpinBackoff, TheDefaultCapSleepsAFlat256AfterEightShortSpins) {
  const uint32_t cap = device_context{}.backoff_cap_ns;
  EXPECT_EQ(cap, 256u);
  for (uint64_t i = 0; i < 8; ++i) EXPECT_EQ(spin_backoff_ns(i, cap), 32u) << i;
  for (uint64_t i : {8ull, 15ull, 16ull, 100ull, 1ull << 20, 1ull << 40}) EXPECT_EQ(spin_backoff_ns(i, cap), 256u) << i;
  EXPECT_EQ(spin_backoff_ns(100, 0), 256u) << "a cap below 256 is the flat 256";
}

TEST(SpinBackoff, ALargerCapDoublesEveryEightIterationsUpToIt) {
  EXPECT_EQ(spin_backoff_ns(8, 4096), 256u);
  EXPECT_EQ(spin_backoff_ns(15, 4096), 256u);
  EXPECT_EQ(spin_backoff_ns(16, 4096), 512u);
  EXPECT_EQ(spin_backoff_ns(24, 4096), 1024u);
  EXPECT_EQ(spin_backoff_ns(40, 4096), 4096u);
  EXPECT_EQ(spin_backoff_ns(48, 4096), 4096u);
  EXPECT_EQ(spin_backoff_ns(uint64_t(1) << 62, 4096), 4096u) << "no overflow for the longest spins";
  EXPECT_EQ(spin_backoff_ns(uint64_t(1) << 62, 0xFFFFFFFFu), 0xFFFFFFFFu);
}

}  // namespace
}  // namespace warpcheck::cuda_backend
