// The scheduler registry: one line a scheduler.
#include "structures/core/sim/schedulers/registry.hpp"

#include <stdexcept>

#include "structures/core/sim/sim_config.hpp"

namespace warpcheck::sim {

extern const SchedulerInfo kRandomScheduler, kPctScheduler, kTargetedScheduler, kGuidedScheduler, kPosScheduler,
    kReplayScheduler;

const std::vector<const SchedulerInfo*>& schedulers() {
  static const std::vector<const SchedulerInfo*> all{&kRandomScheduler,  &kPctScheduler, &kTargetedScheduler,
                                                     &kGuidedScheduler,  &kPosScheduler, &kReplayScheduler};
  return all;
}

const SchedulerInfo& scheduler_named(std::string_view name) {
  std::string known;
  for (const SchedulerInfo* s : schedulers()) {
    if (s->name == name) return *s;
    known += (known.empty() ? "" : ", ") + std::string(s->name);
  }
  throw std::invalid_argument("simulator: no scheduler '" + std::string(name) + "' (" + known + ")");
}

const SchedulerInfo& scheduler_for(const SimConfig& c) {
  return c.replay.empty() ? scheduler_named(c.scheduler.name) : kReplayScheduler;
}

void store_option(SimConfig& c, const SchedulerOption& o, const std::string& value) {
  if (o.store) o.store(c, value);
  else c.scheduler_options[std::string(o.name)] = value;
}

std::string option_text(const SimConfig& c, const SchedulerInfo& s, std::string_view option) {
  if (auto it = c.scheduler_options.find(std::string(option)); it != c.scheduler_options.end()) return it->second;
  for (const SchedulerOption& o : s.options)
    if (o.name == option) return std::string(o.default_value);
  throw std::logic_error("simulator: scheduler " + std::string(s.name) + " declares no option " + std::string(option));
}

}  // namespace warpcheck::sim
