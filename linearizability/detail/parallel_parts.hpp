// Independent parts of a history (its keys) handled on OpenMP's threads
// when there is enough work for threads to pay (bulk.hpp), in order on the
// calling thread otherwise. Each worker polls the caller's long-step poller
// (the checker's budget), and what a part throws (a spent budget, an
// allocation failure) stops the loop and is thrown again on the caller's
// thread once it has ended: nothing escapes an OpenMP region.
#pragma once

#include <omp.h>

#include <atomic>
#include <cstddef>
#include <exception>
#include <utility>

#include "linearizability/detail/bulk.hpp"
#include "models/base/long_step.hpp"

namespace warpcheck::detail {

// How many workers parallel_parts uses for `elements` of work.
inline unsigned parallel_workers(size_t elements) { return worth_threads(elements) ? unsigned(omp_get_max_threads()) : 1u; }

// Calls body(part, worker) for every part in [0, count), on `workers`
// threads (worker < workers) taking `chunk` parts at a time.
template <class Body>
void parallel_parts_on(unsigned workers, size_t count, size_t chunk, Body&& body) {
  if (workers <= 1 || count < 2) {
    for (size_t p = 0; p < count; ++p) body(p, 0u);
    return;
  }
  const LongStepPoller poller = long_step_poller;
  std::exception_ptr failure;
  std::atomic<bool> failed{false};
#pragma omp parallel num_threads(workers)
  {
    const ScopedLongStepPoller polls(poller.poll, poller.reserve, poller.context);
    const unsigned worker = unsigned(omp_get_thread_num());
#pragma omp for schedule(dynamic, chunk)
    for (size_t p = 0; p < count; ++p) {
      if (failed.load(std::memory_order_relaxed)) continue;
      try {
        body(p, worker);
      } catch (...) {
#pragma omp critical(warpcheck_parallel_parts)
        if (!failure) failure = std::current_exception();
        failed.store(true, std::memory_order_relaxed);
      }
    }
  }
  if (failure) std::rethrow_exception(failure);
}

// Calls body(part, worker) for every part in [0, count), worker < parallel_workers(elements).
template <class Body>
void parallel_parts(size_t count, size_t elements, Body&& body) {
  parallel_parts_on(parallel_workers(elements), count, 16, std::forward<Body>(body));
}

}  // namespace warpcheck::detail
