// Uniform random: each step, any runnable lane with equal chance.
#include <memory>

#include "structures/core/sim/schedulers/registry.hpp"
#include "structures/core/sim/simulator.hpp"

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

}  // namespace

std::unique_ptr<Scheduler> make_random_scheduler(uint64_t seed) { return std::make_unique<RandomScheduler>(seed); }

extern const SchedulerInfo kRandomScheduler{
    "random", "uniform random: any runnable lane, with equal chance", {}, kNoEvents,
    [](const SimConfig& c, SchedulerHost&) { return make_random_scheduler(c.seed); }};

}  // namespace warpcheck::sim
