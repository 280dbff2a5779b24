// Shared limits for one check: a deadline, a memory ceiling for the search
// caches, and a cancellation flag raised once any partition is refuted.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>

namespace warpcheck::detail {

struct Budget {
  using Clock = std::chrono::steady_clock;
  Clock::time_point deadline = Clock::time_point::max();
  size_t memory_limit = SIZE_MAX;
  std::atomic<size_t> memory_used{0};
  std::atomic<bool> cancelled{false};

  bool out_of_time() const { return Clock::now() >= deadline; }
  bool out_of_memory() const { return memory_used.load(std::memory_order_relaxed) > memory_limit; }
};

}  // namespace warpcheck::detail
