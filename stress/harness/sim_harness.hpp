// Runs a warp-cooperative structure in the simulator: one lane body per
// lane (work sharing through core::run_team_ops), recorded into host log
// buffers, turned into a History.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "stress/recorder/recorded_history.hpp"
#include "stress/seam/workload.hpp"
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
  const Prefill* prefill = nullptr;  // run by team 0 alone first (recorded in its stream)
};

// A guided run (SchedulerKind::Guided) goes on from what the log already
// holds: records of a prefill run alone first are done in its guide too.
inline void guide_after(sim::Simulator& simulator, const HostLog& log) {
  for (uint32_t s = 0; s < log.view().streams; ++s) simulator.guide_recorded(&log.view(), s, log.counts[s]);
}

// `setup` prepares the simulator (shadow pools): the prefill's, whose shadow
// state the run then takes over.
template <class Structure>
TargetRun run_in_simulator(const Structure& s, const SimTargetSpec& spec, const sim::SimConfig& config,
                           const std::function<void(sim::Simulator&)>& setup = {}) {
  const uint32_t prefill_records = spec.prefill ? spec.prefill->records() : 0;
  HostLog log(config.teams, spec.log_capacity + prefill_records);
  TargetRun out;
  sim::SimConfig concurrent = config;
  std::optional<sim::ShadowMemory> shadow;
  if (prefill_records) {
    // Team 0 alone, under the seed's random schedule (a replayed schedule
    // is the concurrent run's); the run's clock starts after it.
    sim::SimConfig alone = config;
    alone.teams = 1;
    alone.replay.clear();
    alone.scheduler = sim::SchedulerKind::Random;
    sim::Simulator first(alone);
    if (setup) setup(first);
    out.report = first.run([&](sim::sim_team& t) {
      core::run_team_ops(t, s, {spec.prefill->ops.data(), spec.prefill->per_lane}, &log.view());
    });
    if (!out.report.ok()) {
      out.report.message = "prefill: " + out.report.message;
      out.history = history_from_log(log, spec.meta);
      return out;
    }
    concurrent.clock_offset = out.report.steps + 1;
    shadow = first.shadow();  // what the prefill allocated stays allocated
  }
  sim::Simulator simulator(concurrent);
  if (shadow) simulator.shadow() = *shadow;
  else if (setup) setup(simulator);
  guide_after(simulator, log);
  const size_t per_team = size_t(config.lanes) * spec.per_lane;
  out.report = simulator.run([&](sim::sim_team& t) {
    core::run_team_ops(t, s, {spec.ops->data() + per_team * t.team_id(), spec.per_lane}, &log.view());
  });
  out.history = history_from_log(log, spec.meta);
  return out;
}

}  // namespace warpcheck
