#include "stress/seam/stress_loop.hpp"

#include <chrono>

namespace warpcheck {

StressSummary run_stress(const std::function<SeedRun(uint64_t seed)>& run_one, const StressOptions& o) {
  using clock = std::chrono::steady_clock;
  StressSummary s;
  const auto start = clock::now();
  auto last_report = start;
  for (uint64_t i = 0; i < o.seeds; ++i) {
    const uint64_t seed = o.first_seed + i;
    const auto t0 = clock::now();
    SeedRun run = run_one(seed);
    const auto t1 = clock::now();
    CheckResult check = check_history(run.history, o.check);
    const auto t2 = clock::now();
    s.run_seconds += std::chrono::duration<double>(t1 - t0).count();
    s.check_seconds += std::chrono::duration<double>(t2 - t1).count();
    ++s.runs;
    s.operations += run.history.ops.size();
    s.steps += run.steps;
    s.faults += run.fault;
    s.invariant_failures += !run.invariant_violations.empty();
    switch (check.verdict) {
      case Verdict::Linearizable: ++s.linearizable; break;
      case Verdict::Violation: ++s.violations; break;
      case Verdict::Unknown:
        ++s.unknown;
        if (!s.first_unknown) s.first_unknown.emplace(seed, check.reason + " (checker: " + check.algorithm + ")");
        break;
    }
    if (check.hint_replay && check.hint_replay->outcome != HintReplay::Outcome::NotApplicable) {
      const bool unexplained = SeedRun::points_not_explained(check);
      ++(unexplained ? s.points_not_explained : s.points_explained);
      if (unexplained && !s.first_unexplained) s.first_unexplained = SeedFailure{seed, run, check};
    }
    const bool failed = run.failed(check, o.points_must_hold);
    s.failed_runs += failed;
    if (o.on_run) o.on_run(seed, run, check, failed);
    if (failed && o.on_failure) o.on_failure(seed, run, check);
    if (failed && !s.first_failure) s.first_failure = SeedFailure{seed, std::move(run), std::move(check)};
    if (o.progress && (clock::now() - last_report > std::chrono::seconds(1) || i + 1 == o.seeds)) {
      last_report = clock::now();
      o.progress({i + 1, o.seeds, s.failed_runs,
                  std::chrono::duration<double>(last_report - start).count()});
    }
    if (failed && !o.keep_going) break;
  }
  return s;
}

}  // namespace warpcheck
