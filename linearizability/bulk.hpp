// Bulk work on histories through Thrust: on its OpenMP back-end when there
// is enough work for threads to pay, sequentially below that. A small check
// must never wake a thread team: libgomp's idle threads spin, and on a
// loaded machine spinning threads starve each other (a 2-operation check
// took 50-160 ms instead of 0.3 ms, a property test 526 s instead of 8 s).
// Public: stress builds its synthetic histories under the same rule.
#pragma once

#include <thrust/execution_policy.h>
#include <thrust/system/omp/execution_policy.h>

#include <cstddef>

namespace warpcheck::detail {

// Elements below which bulk steps stay on the calling thread.
inline constexpr size_t kParallelFrom = size_t(1) << 15;

inline bool worth_threads(size_t elements) { return elements >= kParallelFrom; }

// Calls f with Thrust's OpenMP policy for large inputs, its sequential one otherwise.
template <class F>
decltype(auto) with_bulk_policy(size_t elements, F&& f) {
  if (worth_threads(elements)) return f(thrust::omp::par);
  return f(thrust::seq);
}

}  // namespace warpcheck::detail
