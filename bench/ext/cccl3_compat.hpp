// The fetched cuCollections snapshot (2024-10) predates CCCL 3 (CUDA 13),
// which removed thrust::identity; this restores it for that snapshot only.
#pragma once
#include <thrust/functional.h>
#include <thrust/version.h>

#include <utility>

#if THRUST_MAJOR_VERSION >= 3
THRUST_NAMESPACE_BEGIN
template <class T = void>
struct identity {
  __host__ __device__ constexpr const T& operator()(const T& x) const noexcept { return x; }
};
template <>
struct identity<void> {
  template <class U>
  __host__ __device__ constexpr U&& operator()(U&& x) const noexcept {
    return std::forward<U>(x);
  }
};
THRUST_NAMESPACE_END
#endif
