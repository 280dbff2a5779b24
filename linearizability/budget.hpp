// Shared limits for one check: a deadline, a ceiling on the process's
// resident memory, a ceiling on what the searches' own structures hold, and
// a cancellation flag raised once any partition is refuted. Long steps
// (model steps over big batches, cache growth, loading a file) check it
// inside, and stop by throwing BudgetExhausted. Public: the command line
// spends one on reading a history before the check starts.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>

#include "linearizability/detail/resident_memory.hpp"
#include "models/base/long_step.hpp"

namespace warpcheck::detail {

enum class BudgetStop { None, Time, Memory, Cancelled };

struct BudgetExhausted {
  BudgetStop why;
};

struct Budget {
  using Clock = std::chrono::steady_clock;
  Clock::time_point deadline = Clock::time_point::max();
  size_t memory_limit = SIZE_MAX;    // bytes the searches' caches and stacks may hold
  size_t resident_limit = SIZE_MAX;  // bytes the whole process may have resident
  std::atomic<size_t> memory_used{0};
  std::atomic<bool> cancelled{false};

  bool out_of_time() const { return Clock::now() >= deadline; }
  // Out of memory a little before the resident limit: allocations between
  // two checks must not carry the process past it.
  bool out_of_memory() const {
    if (memory_used.load(std::memory_order_relaxed) > memory_limit) return true;
    return resident_limit != SIZE_MAX && resident_bytes() + resident_slack() > resident_limit;
  }
  BudgetStop stop() const {
    if (cancelled.load(std::memory_order_relaxed)) return BudgetStop::Cancelled;
    if (out_of_memory()) return BudgetStop::Memory;
    if (out_of_time()) return BudgetStop::Time;
    return BudgetStop::None;
  }
  // Throws when the budget is spent (for long steps).
  void check() const {
    if (BudgetStop why = stop(); why != BudgetStop::None) throw BudgetExhausted{why};
  }
  // Throws unless `bytes` more can be allocated at once (a cache that
  // doubles, a file read whole) without passing the limits.
  void reserve(size_t bytes) const {
    if (memory_used.load(std::memory_order_relaxed) + bytes > memory_limit) throw BudgetExhausted{BudgetStop::Memory};
    if (resident_limit != SIZE_MAX && resident_bytes() + bytes + resident_slack() > resident_limit)
      throw BudgetExhausted{BudgetStop::Memory};
  }
  // The poller that model steps reach through poll_long_step().
  static void poll(void* budget) { static_cast<const Budget*>(budget)->check(); }
  static void reserve_for(void* budget, size_t bytes) { static_cast<const Budget*>(budget)->reserve(bytes); }
  // Installs this budget as the current thread's long-step poller.
  detail::ScopedLongStepPoller install() const { return {&Budget::poll, &Budget::reserve_for, const_cast<Budget*>(this)}; }

 private:
  size_t resident_slack() const { return resident_limit / 32; }
};

// The budget installed as this thread's long-step poller, if one is: a
// procedure that runs a search inside a check spends the check's budget.
inline Budget* installed_budget() {
  return long_step_poller.poll == &Budget::poll ? static_cast<Budget*>(long_step_poller.context) : nullptr;
}

}  // namespace warpcheck::detail
