// Scheduling strategies: at each step, which runnable lane goes next.
//  - uniform random;
//  - PCT (Burckhardt, Kothari, Musuvathi, Nagarakatte, ASPLOS 2010): random
//    distinct priorities, the highest runnable lane runs, and d-1 random
//    change points each drop the running one below every initial priority.
//    A bug of depth d shows with probability at least 1 / (n * k^(d-1)) per
//    run, for n threads and k steps. PCT's threads are teams here (see
//    PctScheduler);
//  - replay of a recorded schedule.
// The targeted strategy picks as uniform random does; the simulator adds
// its preemptions (SimConfig::preempt_reads), which need what it knows of
// each lane's next access.
// Lanes that spin yield: PCT drops them below everyone, so a high-priority
// spinner cannot starve the lock holder it waits for.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/base/splitmix.hpp"
#include "structures/core/sim/schedule.hpp"

namespace warpcheck::sim {

// The runnable lanes, with O(1) insertion and removal.
class RunQueue {
 public:
  explicit RunQueue(uint32_t lanes) : where_(lanes, kAbsent) {}
  void add(uint32_t lane) {
    if (where_[lane] != kAbsent) return;
    where_[lane] = static_cast<uint32_t>(lanes_.size());
    lanes_.push_back(lane);
  }
  void remove(uint32_t lane) {
    const uint32_t at = where_[lane];
    if (at == kAbsent) return;
    where_[lanes_.back()] = at;
    lanes_[at] = lanes_.back();
    lanes_.pop_back();
    where_[lane] = kAbsent;
  }
  bool contains(uint32_t lane) const { return where_[lane] != kAbsent; }
  uint32_t capacity() const { return static_cast<uint32_t>(where_.size()); }
  bool empty() const { return lanes_.empty(); }
  size_t size() const { return lanes_.size(); }
  uint32_t operator[](size_t i) const { return lanes_[i]; }

 private:
  static constexpr uint32_t kAbsent = UINT32_MAX;
  std::vector<uint32_t> lanes_;
  std::vector<uint32_t> where_;
};

// splitmix64: small, fast, and the same sequence everywhere.
class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed) {}
  uint64_t next() { return detail::splitmix64(s_ += detail::kGoldenGamma); }
  // Uniform in [0, n), n > 0 (Lemire's multiply-shift; bias below 2^-32 for small n).
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(((next() >> 32) * n) >> 32); }

 private:
  uint64_t s_;
};

class Scheduler {
 public:
  virtual ~Scheduler() = default;
  // The lane to run at `step`; UINT32_MAX when the strategy cannot go on
  // (a replayed schedule that no longer fits the program), with why().
  virtual uint32_t pick(const RunQueue& runnable, uint64_t step) = 0;
  virtual void on_spin(uint32_t /*lane*/) {}
  // The run queue changed (strategies that keep their own order follow it).
  virtual void on_runnable(uint32_t /*lane*/) {}
  virtual void on_blocked(uint32_t /*lane*/) {}
  virtual std::string why() const { return {}; }
};

std::unique_ptr<Scheduler> make_random_scheduler(uint64_t seed);
std::unique_ptr<Scheduler> make_pct_scheduler(uint64_t seed, uint32_t lanes, uint32_t lanes_per_team, uint32_t depth,
                                              uint64_t steps);
std::unique_ptr<Scheduler> make_replay_scheduler(Schedule schedule);

}  // namespace warpcheck::sim
