#include "structures/core/sim/scheduler.hpp"

#include <algorithm>
#include <numeric>

namespace warpcheck::sim {

namespace {

class RandomScheduler final : public Scheduler {
 public:
  explicit RandomScheduler(uint64_t seed) : rng_(seed) {}
  uint32_t pick(const RunQueue& runnable, uint64_t) override {
    return runnable[rng_.below(static_cast<uint32_t>(runnable.size()))];
  }

 private:
  Rng rng_;
};

class PctScheduler final : public Scheduler {
 public:
  PctScheduler(uint64_t seed, uint32_t lanes, uint32_t depth, uint64_t steps) : priority_(lanes) {
    Rng rng(seed);
    // Initial priorities depth .. depth+lanes-1 in a random order (higher runs first).
    std::vector<int64_t> values(lanes);
    std::iota(values.begin(), values.end(), int64_t(depth));
    for (uint32_t i = lanes; i > 1; --i) std::swap(values[i - 1], values[rng.below(i)]);
    priority_ = values;
    // depth-1 change points in [1, steps]; the i-th (in step order) lowers
    // the running lane to depth-i, below every initial priority.
    for (uint32_t i = 1; i < depth; ++i) change_at_.push_back(1 + rng.next() % std::max<uint64_t>(steps, 1));
    std::sort(change_at_.begin(), change_at_.end());
    lowest_ = 0;
  }

  uint32_t pick(const RunQueue& runnable, uint64_t step) override {
    while (next_change_ < change_at_.size() && change_at_[next_change_] <= step) {
      if (last_ != UINT32_MAX) priority_[last_] = int64_t(change_at_.size()) - int64_t(next_change_);
      ++next_change_;
    }
    uint32_t best = runnable[0];
    for (size_t i = 1; i < runnable.size(); ++i)
      if (priority_[runnable[i]] > priority_[best]) best = runnable[i];
    return last_ = best;
  }

  // A spinning lane waits for someone else: let everyone else go first.
  void on_spin(uint32_t lane) override { priority_[lane] = --lowest_; }

 private:
  std::vector<int64_t> priority_;
  std::vector<uint64_t> change_at_;
  size_t next_change_ = 0;
  uint32_t last_ = UINT32_MAX;
  int64_t lowest_;
};

class ReplayScheduler final : public Scheduler {
 public:
  explicit ReplayScheduler(Schedule s) : schedule_(std::move(s)) {}
  uint32_t pick(const RunQueue& runnable, uint64_t step) override {
    if (step >= schedule_.size()) {
      why_ = "the schedule ends at step " + std::to_string(step) + " but the run goes on";
      return UINT32_MAX;
    }
    const uint32_t lane = schedule_[step];
    if (lane >= runnable_limit(runnable) || !runnable.contains(lane)) {
      why_ = "at step " + std::to_string(step) + " the schedule runs lane " + std::to_string(lane) +
             ", which is not runnable: the program or its configuration differs from the recorded run";
      return UINT32_MAX;
    }
    return lane;
  }
  std::string why() const override { return why_; }

 private:
  // Lanes beyond the run's count cannot be looked up.
  static uint32_t runnable_limit(const RunQueue& q) { return q.capacity(); }
  Schedule schedule_;
  std::string why_;
};

}  // namespace

std::unique_ptr<Scheduler> make_random_scheduler(uint64_t seed) { return std::make_unique<RandomScheduler>(seed); }
std::unique_ptr<Scheduler> make_pct_scheduler(uint64_t seed, uint32_t lanes, uint32_t depth, uint64_t steps) {
  return std::make_unique<PctScheduler>(seed, lanes, depth, steps);
}
std::unique_ptr<Scheduler> make_replay_scheduler(Schedule schedule) {
  return std::make_unique<ReplayScheduler>(std::move(schedule));
}

}  // namespace warpcheck::sim
