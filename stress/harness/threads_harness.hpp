// Runs a warp-cooperative structure in the real-threads mode (one OS thread
// per lane), recorded with the global ticket clock, for ThreadSanitizer.
#pragma once
#include <vector>

#include "stress/recorder/recorded_history.hpp"
#include "stress/seam/workload.hpp"
#include "structures/core/threads/run_threads.hpp"
#include "structures/core/warp_driver.hpp"

namespace warpcheck {

struct ThreadsRun {
  threads::ThreadsReport report;
  History history;
};

// `prefill`: run by team 0 alone first (recorded in its stream).
template <class Structure>
ThreadsRun run_in_threads(const Structure& s, const std::vector<core::workload_op>& ops, uint32_t teams,
                          uint32_t per_lane, uint32_t log_capacity, HistoryMeta meta, const Prefill& prefill = {}) {
  constexpr uint32_t kLanes = 32;
  HostLog log(teams, log_capacity + prefill.records());
  log.view().clock = core::clock_kind::ticket;
  ThreadsRun out;
  threads::run_state run;  // one ticket clock for the prefill and the run
  if (prefill.per_lane) {
    out.report = threads::run_threads(1, kLanes, run, [&](threads::thread_team& t) {
      core::run_team_ops(t, s, {prefill.ops.data(), prefill.per_lane}, &log.view());
    });
    if (!out.report.ok) {
      out.report.message = "prefill: " + out.report.message;
      out.history = history_from_log(log, std::move(meta));
      return out;
    }
  }
  out.report = threads::run_threads(teams, kLanes, run, [&](threads::thread_team& t) {
    core::run_team_ops(t, s, {ops.data() + size_t(kLanes) * per_lane * t.team_id(), per_lane}, &log.view());
  });
  out.history = history_from_log(log, std::move(meta));
  return out;
}

}  // namespace warpcheck
