// Runs a warp-cooperative structure in the simulator: one lane body per
// lane (work sharing through core::run_team_ops), recorded into host log
// buffers, turned into a History.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "stress/harness/recorded_history.hpp"
#include "structures/core/sim/sim_team.hpp"
#include "structures/core/warp_driver.hpp"

namespace warpcheck {

struct TargetRun {
  sim::RunReport report;  // how the run ended, its schedule
  History history;        // what was recorded
};

// A run and the structure's quiescent invariants, checked when it completed.
struct CheckedRun {
  TargetRun run;
  std::vector<std::string> invariant_violations;  // empty: they hold
};

struct SimTargetSpec {
  const std::vector<core::workload_op>* ops;  // teams * lanes * per_lane, team-major then lane-major
  uint32_t per_lane;
  uint32_t log_capacity;  // records per team
  HistoryMeta meta;
};

template <class Structure>
TargetRun run_in_simulator(const Structure& s, const SimTargetSpec& spec, const sim::SimConfig& config,
                           const std::function<void(sim::Simulator&)>& setup = {}) {
  HostLog log(config.teams, spec.log_capacity);
  sim::Simulator simulator(config);
  if (setup) setup(simulator);
  const size_t per_team = size_t(config.lanes) * spec.per_lane;
  TargetRun out;
  out.report = simulator.run([&](sim::sim_team& t) {
    core::run_team_ops(t, s, {spec.ops->data() + per_team * t.team_id(), spec.per_lane}, &log.view());
  });
  out.history = history_from_log(log, spec.meta);
  return out;
}

}  // namespace warpcheck
