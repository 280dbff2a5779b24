// The stress command's work, out of the CLI: run a request's seeds
// (stress_request.hpp), shrink a simulator failure, write the failure's
// files and print the summary and the reproduce lines.
#pragma once
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "stress/run/stress_request.hpp"

namespace warpcheck {

// Runs it; the summary and any failure to `out`, progress to `err`.
// Returns the exit code: 0 pass, 1 a failing run, 2 an undecided check.
int run_stress_request(const StressRequest& request, std::ostream& out, std::ostream& err);

// --keep KEEP with --out DIR: a StressOptions::on_run that writes the runs
// KEEP names (failures, unknown: failures and undecided runs, all, none)
// as DIR/seed-K-VERDICT.bin (FAILED for a run failed by a fault or an
// invariant rather than its verdict).
std::function<void(uint64_t, const SeedRun&, const CheckResult&, bool)> run_keeper(const std::string& dir, const std::string& keep);

// With a recipe on: the slowdown, as kernel time a run, median, against
// the first few seeds run again without the recipe (timed only, not
// checked), and the first run's perturbed launch.
void report_perturbation(const Options& o, const std::string& launch, const std::vector<double>& perturbed_ms,
                         const std::function<double(uint64_t seed)>& unperturbed_ms, uint64_t first_seed, std::ostream& out);

// Shrinks a simulator failure's workload: fewer and simpler operations,
// kept while a run under one of a few schedule seeds (the failing seed
// first) still fails. Returns the shrunk failure (rerun, checked) with its
// workload and the shrinker's counts; nullopt if, against expectation, the
// shrunk workload no longer fails.
struct ShrunkFailure {
  SeedFailure failure;
  Ops ops;
  ShrinkResult shrink;
};
// A failing simulator run's workload shrunk while some schedule seed still
// fails it the same way: with the same oracle firing first (`kind`, the
// original failure's), so that a deadlock does not shrink into a broken
// invariant. Nullopt when the result no longer fails that way.
std::optional<ShrunkFailure> shrink_failure(const Target& t, const sim::SimConfig& s, uint64_t seed, FailureOracle kind,
                                            const CheckOptions& check, bool points_must_hold, size_t max_tries);

}  // namespace warpcheck
