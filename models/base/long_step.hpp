// Model steps that can be long (a batch of a million keys, a copy or a
// comparison of a large state) call poll_long_step() every few thousand
// keys, so that a checker can stop them when its budget runs out. A checker
// installs a poller for its thread for the duration of a search; the poller
// throws to abandon the step (the state stays well formed, only its meaning
// is lost, and the checker discards it). Without a poller this costs one
// thread-local load.
#pragma once

#include <cstddef>
#include <cstdint>

namespace warpcheck::detail {

struct LongStepPoller {
  void (*poll)(void* context) = nullptr;
  void (*reserve)(void* context, size_t bytes) = nullptr;  // before one large allocation
  void* context = nullptr;
};

inline thread_local LongStepPoller long_step_poller;

// Keys handled between two polls.
inline constexpr uint32_t kKeysPerPoll = 4096;

inline void poll_long_step() {
  if (long_step_poller.poll) long_step_poller.poll(long_step_poller.context);
}

// Polls once every kKeysPerPoll keys of a batch (i: the key's index in it).
inline void poll_every_keys(uint32_t i) {
  if (i % kKeysPerPoll == kKeysPerPoll - 1) poll_long_step();
}

// Asks before allocating `bytes` at once (a history's records, a file read
// whole); throws like poll_long_step() when that would pass the budget.
inline void reserve_long_step(size_t bytes) {
  if (long_step_poller.reserve) long_step_poller.reserve(long_step_poller.context, bytes);
}

// Installs a poller for the current thread while in scope.
class ScopedLongStepPoller {
 public:
  ScopedLongStepPoller(void (*poll)(void*), void (*reserve)(void*, size_t), void* context) : saved_(long_step_poller) {
    long_step_poller = {poll, reserve, context};
  }
  ~ScopedLongStepPoller() { long_step_poller = saved_; }
  ScopedLongStepPoller(const ScopedLongStepPoller&) = delete;
  ScopedLongStepPoller& operator=(const ScopedLongStepPoller&) = delete;

 private:
  LongStepPoller saved_;
};

}  // namespace warpcheck::detail
