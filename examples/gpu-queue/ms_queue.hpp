// A lock-free FIFO queue (Michael and Scott, PODC 1996) as GPU code often
// has one: a header compiled for the device by nvcc (libcu++'s atomic_ref)
// and for the host by any C++20 compiler (std::atomic_ref). It knows
// nothing of warpcheck; queue_kernel.cu and host_queue.cpp record it.
//
// Nodes come from a pool, one per enqueue, never reused (no ABA, no
// reclamation); links are a node's index + 1 (0: none). Node 0 is the
// initial dummy. Every retry loop is bounded: an operation that gives up
// says so, and its caller leaves it unfinished.
#pragma once
#include <cstdint>
#include <thread>

#if defined(__CUDACC__)
#include <cuda/atomic>
#define MSQ_HD __host__ __device__
#define MSQ_REF(T, x) cuda::atomic_ref<T, cuda::thread_scope_device>(x)
#define MSQ_ORDER(o) cuda::std::memory_order_##o
#else
#include <atomic>
#define MSQ_HD
#define MSQ_REF(T, x) std::atomic_ref<T>(x)
#define MSQ_ORDER(o) std::memory_order_##o
#endif

namespace msq {

struct node {
  int64_t value;
  uint32_t next;
  uint32_t unused;
};

enum class answer : uint8_t { done, empty, gave_up };

MSQ_HD inline void back_off(uint32_t attempt) {
#if defined(__CUDA_ARCH__)
  __nanosleep(attempt < 8 ? 32 : 256);
#else
  if (attempt > 8) std::this_thread::yield();
#endif
}

struct queue {
  node* nodes;    // the pool; node 0 is the dummy
  uint32_t* head; // index + 1 of the dummy in front
  uint32_t* tail; // index + 1 of the last node, or one behind it
  uint32_t max_attempts;

  MSQ_HD uint32_t load(uint32_t* p) const { return MSQ_REF(uint32_t, *p).load(MSQ_ORDER(acquire)); }
  MSQ_HD bool cas(uint32_t* p, uint32_t expected, uint32_t desired) const {
    return MSQ_REF(uint32_t, *p).compare_exchange_strong(expected, desired, MSQ_ORDER(acq_rel), MSQ_ORDER(acquire));
  }

  // Enqueues `value` in pool node `index` (>= 1, its own).
  MSQ_HD answer enqueue(int64_t value, uint32_t index) const {
    node& n = nodes[index];
    n.value = value;
    MSQ_REF(uint32_t, n.next).store(0, MSQ_ORDER(relaxed));
    for (uint32_t attempt = 0; attempt < max_attempts; ++attempt) {
      const uint32_t last = load(tail);
      const uint32_t next = load(&nodes[last - 1].next);
      if (last != load(tail)) continue;
      if (next == 0) {
        // The release half of the CAS publishes the node's value and link.
        if (cas(&nodes[last - 1].next, 0, index + 1)) {
          cas(tail, last, index + 1);  // may fail: someone helped
          return answer::done;
        }
      } else {
        cas(tail, last, next);  // help a lagging tail
      }
      back_off(attempt);
    }
    return answer::gave_up;
  }

  MSQ_HD answer dequeue(int64_t& value) const {
    for (uint32_t attempt = 0; attempt < max_attempts; ++attempt) {
      const uint32_t first = load(head);
      const uint32_t last = load(tail);
      const uint32_t next = load(&nodes[first - 1].next);
      if (first != load(head)) continue;
      if (first == last) {
        if (next == 0) return answer::empty;
        cas(tail, last, next);
      } else {
        // Read before the CAS, as Michael and Scott do: after it another
        // dequeue may recycle the node (not in this pool, but in most).
        const int64_t v = nodes[next - 1].value;
        if (cas(head, first, next)) {
          value = v;
          return answer::done;
        }
      }
      back_off(attempt);
    }
    return answer::gave_up;
  }
};

}  // namespace msq
