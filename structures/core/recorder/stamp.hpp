// The recorder's clock and fence where there is no team of the layer to ask
// (the drop-in recorder, drop_in_log.hpp; the GPU teams' now() is this
// clock too): on the GPU %globaltimer (ns) or an atomic ticket, and a
// sequentially consistent fence at device scope; on the host a steady
// clock (ns) or the ticket, and std::atomic_thread_fence.
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>

#include "structures/core/team.hpp"

#if defined(__CUDACC__)
#include <cuda/atomic>
#endif

namespace warpcheck::core {

WC_HD WC_FORCE_INLINE uint64_t recorder_now(clock_kind clock, uint64_t* ticket) {
#if defined(__CUDA_ARCH__)
  if (clock == clock_kind::ticket) return atomicAdd(reinterpret_cast<unsigned long long*>(ticket), 1ull);
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
#else
  if (clock == clock_kind::ticket) return std::atomic_ref<uint64_t>(*ticket).fetch_add(1, std::memory_order_seq_cst);
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
#endif
}

WC_HD WC_FORCE_INLINE void recorder_fence() {
#if defined(__CUDA_ARCH__)
  cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_device);
#else
  std::atomic_thread_fence(std::memory_order_seq_cst);
#endif
}

// One more of a counter that several threads bump (rarely: what was not
// recorded at all).
WC_HD WC_FORCE_INLINE void recorder_count(uint32_t* counter) {
#if defined(__CUDA_ARCH__)
  atomicAdd(counter, 1u);
#else
  std::atomic_ref<uint32_t>(*counter).fetch_add(1, std::memory_order_relaxed);
#endif
}

}  // namespace warpcheck::core
