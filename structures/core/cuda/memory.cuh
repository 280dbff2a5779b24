// Shared words on the GPU: each access compiles to one PTX ld/st/atom (or
// fence) with the order and scope asked for, through libcu++'s atomic_ref.
// Weak accesses are plain loads and stores.
#pragma once
#include <cuda/atomic>

#include "structures/core/memory_order.hpp"

namespace warpcheck::cuda_backend {

__device__ __forceinline__ cuda::memory_order load_order(core::order o) {
  switch (o) {
    case core::order::acquire:
    case core::order::acq_rel: return cuda::memory_order_acquire;
    case core::order::seq_cst: return cuda::memory_order_seq_cst;
    default: return cuda::memory_order_relaxed;
  }
}
__device__ __forceinline__ cuda::memory_order store_order(core::order o) {
  switch (o) {
    case core::order::release:
    case core::order::acq_rel: return cuda::memory_order_release;
    case core::order::seq_cst: return cuda::memory_order_seq_cst;
    default: return cuda::memory_order_relaxed;
  }
}
__device__ __forceinline__ cuda::memory_order rmw_order(core::order o) {
  switch (o) {
    case core::order::acquire: return cuda::memory_order_acquire;
    case core::order::release: return cuda::memory_order_release;
    case core::order::acq_rel: return cuda::memory_order_acq_rel;
    case core::order::seq_cst: return cuda::memory_order_seq_cst;
    default: return cuda::memory_order_relaxed;
  }
}

// Calls f with an atomic_ref of the asked scope.
template <class W, class F>
__device__ __forceinline__ auto with_ref(W* p, core::scope s, F&& f) {
  if (s == core::scope::system) return f(cuda::atomic_ref<W, cuda::thread_scope_system>(*p));
  if (s == core::scope::cta) return f(cuda::atomic_ref<W, cuda::thread_scope_block>(*p));
  return f(cuda::atomic_ref<W, cuda::thread_scope_device>(*p));
}

template <class W>
__device__ __forceinline__ W load(const W* p, core::order o, core::scope s) {
  if (o == core::order::weak) return *p;
  return with_ref(const_cast<W*>(p), s, [&](auto r) { return r.load(load_order(o)); });
}
template <class W>
__device__ __forceinline__ void store(W* p, W v, core::order o, core::scope s) {
  if (o == core::order::weak) {
    *p = v;
    return;
  }
  with_ref(p, s, [&](auto r) {
    r.store(v, store_order(o));
    return 0;
  });
}
template <class W>
__device__ __forceinline__ W cas(W* p, W expected, W desired, core::order o, core::scope s) {
  return with_ref(p, s, [&](auto r) {
    r.compare_exchange_strong(expected, desired, rmw_order(o), load_order(o));
    return expected;  // the value found: equal to the argument when it succeeded
  });
}
template <class W>
__device__ __forceinline__ W exchange(W* p, W v, core::order o, core::scope s) {
  return with_ref(p, s, [&](auto r) { return r.exchange(v, rmw_order(o)); });
}
template <class W>
__device__ __forceinline__ W fetch_add(W* p, W v, core::order o, core::scope s) {
  return with_ref(p, s, [&](auto r) { return r.fetch_add(v, rmw_order(o)); });
}
template <class W>
__device__ __forceinline__ W fetch_and(W* p, W v, core::order o, core::scope s) {
  return with_ref(p, s, [&](auto r) { return r.fetch_and(v, rmw_order(o)); });
}
template <class W>
__device__ __forceinline__ W fetch_or(W* p, W v, core::order o, core::scope s) {
  return with_ref(p, s, [&](auto r) { return r.fetch_or(v, rmw_order(o)); });
}
template <class W>
__device__ __forceinline__ W fetch_min(W* p, W v, core::order o, core::scope s) {
  return with_ref(p, s, [&](auto r) { return r.fetch_min(v, rmw_order(o)); });
}
__device__ __forceinline__ void fence(core::order o, core::scope s) {
  if (s == core::scope::system) cuda::atomic_thread_fence(rmw_order(o), cuda::thread_scope_system);
  else if (s == core::scope::cta) cuda::atomic_thread_fence(rmw_order(o), cuda::thread_scope_block);
  else cuda::atomic_thread_fence(rmw_order(o), cuda::thread_scope_device);
}

}  // namespace warpcheck::cuda_backend
