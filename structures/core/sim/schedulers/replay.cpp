// Replay: the lanes a recorded schedule names, step by step. Chosen by the
// configuration (SimConfig::replay), not by name: a schedule replays under
// the scheduler that recorded it, whose declared events (an operation's
// begin as a point of its own) keep the steps the same.
#include <memory>

#include "structures/core/sim/schedulers/registry.hpp"
#include "structures/core/sim/simulator.hpp"

namespace warpcheck::sim {

namespace {

class ReplayScheduler final : public Scheduler {
 public:
  explicit ReplayScheduler(Schedule s) : schedule_(std::move(s)) {}
  uint32_t pick(const RunQueue& runnable, uint64_t step) override {
    if (step >= schedule_.size()) {
      why_ = "the schedule ends at step " + std::to_string(step) + " but the run goes on";
      return UINT32_MAX;
    }
    const uint32_t lane = schedule_[step];
    if (lane >= runnable.capacity() || !runnable.contains(lane)) {  // lanes beyond the run's count cannot be looked up
      why_ = "at step " + std::to_string(step) + " the schedule runs lane " + std::to_string(lane) +
             ", which is not runnable: the program or its configuration differs from the recorded run";
      return UINT32_MAX;
    }
    return lane;
  }
  std::string why() const override { return why_; }
  std::string at_end(uint64_t steps) const override {
    if (steps == schedule_.size()) return {};
    return "the run ended at step " + std::to_string(steps) + " but the schedule has " + std::to_string(schedule_.size()) +
           " steps";
  }

 private:
  Schedule schedule_;
  std::string why_;
};

}  // namespace

extern const SchedulerInfo kReplayScheduler{
    "replay", "the lanes of a recorded schedule (--schedule), step by step", {}, kNoEvents,
    [](const SimConfig& c, SchedulerHost&) -> std::unique_ptr<Scheduler> {
      return std::make_unique<ReplayScheduler>(decode_schedule(c.replay));
    },
    nullptr, false};

}  // namespace warpcheck::sim
