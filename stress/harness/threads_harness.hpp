// Runs a warp-cooperative structure in the real-threads mode (one OS thread
// per lane), recorded with the global ticket clock, for ThreadSanitizer.
#pragma once
#include <vector>

#include "stress/harness/recorded_history.hpp"
#include "structures/core/threads/run_threads.hpp"
#include "structures/core/warp_driver.hpp"

namespace warpcheck {

struct ThreadsRun {
  threads::ThreadsReport report;
  History history;
};

template <class Structure>
ThreadsRun run_in_threads(const Structure& s, const std::vector<core::workload_op>& ops, uint32_t teams,
                          uint32_t per_lane, uint32_t log_capacity, HistoryMeta meta) {
  constexpr uint32_t kLanes = 32;
  HostLog log(teams, log_capacity);
  log.view().clock = core::clock_kind::ticket;
  threads::run_state run;
  ThreadsRun out;
  out.report = threads::run_threads(teams, kLanes, run, [&](threads::thread_team& t) {
    core::run_team_ops(t, s, {ops.data() + size_t(kLanes) * per_lane * t.team_id(), per_lane}, &log.view());
  });
  out.history = history_from_log(log, std::move(meta));
  return out;
}

}  // namespace warpcheck
