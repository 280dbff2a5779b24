// The stress command's work, out of the CLI: configure the structure from
// its options, run the seeds (stress_loop), shrink a simulator failure,
// write the failure's files and print the summary and the reproduce lines;
// and replay a failure from its history alone.
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>
#include <functional>

#include "stress/seam/registry.hpp"
#include "stress/seam/stress_loop.hpp"

namespace warpcheck {

// --backend as asked, or the GPU when there is one (else the simulator);
// throws std::invalid_argument naming what the structure runs on.
Backend resolve_backend(const Structure& s, const std::optional<std::string>& asked, const GpuProbe& gpu);

// What `warpcheck stress` or `warpcheck repro` asks for.
struct StressRequest {
  const Structure* structure = nullptr;
  Options options;                     // option_table(*structure), parsed
  std::optional<uint64_t> repro_seed;  // repro: this seed only (on the GPU: rerun --times)
  std::optional<Ops> workload;         // --workload @FILE, or the one a history holds
  std::string schedule;                // --schedule: a printed schedule to replay
  std::optional<std::string> original; // repro of a history file: its bytes, compared with the rerun's
  std::string history_path;            // repro of a history file: where it is
  std::optional<FailureRecord> recorded_failure;  // repro of a history file: the failure it records
  // A guided simulator run's guide, when the caller holds the GPU run's
  // history (the recipe table); else --guide names its file.
  std::shared_ptr<const sim::Guide> guide;
};

// Options parsed for a structure: the run's values and flags by name, the
// mutant and fixes checked against where they apply, the workload and
// schedule options read.
StressRequest make_request(const Structure& s, Backend b, const std::map<std::string, std::string>& values,
                           const std::set<std::string>& flags);

// The request that reruns the run a history records (its header holds the
// configuration, the seed and, when it is not the seed's own, the
// workload). Session values (out, quiet, times, ...) may be added.
StressRequest request_from_history(const Registry& r, const std::string& path,
                                   const std::map<std::string, std::string>& session_values,
                                   const std::set<std::string>& session_flags);

// The request a run configuration (run_configuration's JSON) describes,
// session values and flags added (a run option among them is refused);
// `where` names the configuration's source in errors.
StressRequest request_from_configuration(const Registry& r, const std::string& configuration, const std::string& where,
                                         const std::map<std::string, std::string>& session_values,
                                         const std::set<std::string>& session_flags);

// The same from text: "--mode map --teams 4" (how catalogues name runs).
StressRequest request_from_flags(const Structure& s, Backend b, const std::string& flags);

// A request's runs, seed by seed, as `stress` and a campaign's shards run
// them: the target configured once; in the simulator, the configuration
// derived once (PCT's step estimate, from the first seed, is stored into
// the options, so a campaign's shards all run the same schedules as one
// process would); every history stamped with the run's configuration.
// Holds a reference to the request.
class SeedRunner {
 public:
  explicit SeedRunner(const StressRequest& request);  // throws std::invalid_argument
  SeedRunner(const SeedRunner&) = delete;
  SeedRunner& operator=(const SeedRunner&) = delete;

  SeedRun run(uint64_t seed) const;
  Ops workload(uint64_t seed) const;  // the request's own, or the seed's
  // The loop over seeds [first_seed, first_seed + seeds) as the options say
  // (--keep-going, --require-points, the checker's --timeout).
  StressOptions loop_options(uint64_t first_seed, uint64_t seeds) const;
  const Options& options() const { return options_; }  // with the derived values
  const Target& target() const { return target_; }
  const sim::SimConfig& simulator() const { return sim_; }
  bool judges_points() const { return judge_points_; }  // the proof's points are judged on this back-end

 private:
  const StressRequest& request_;
  Options options_;
  Target target_;
  sim::SimConfig sim_;
  std::string config_;
  bool judge_points_ = true;
};

// Runs it; the summary and any failure to `out`, progress to `err`.
// Returns the exit code: 0 pass, 1 a failing run, 2 an undecided check.
int run_stress_request(const StressRequest& request, std::ostream& out, std::ostream& err);

// --keep KEEP with --out DIR: a StressOptions::on_run that writes the runs
// KEEP names (failures, unknown: failures and undecided runs, all, none)
// as DIR/seed-K-VERDICT.bin (FAILED for a run failed by a fault or an
// invariant rather than its verdict).
std::function<void(uint64_t, const SeedRun&, const CheckResult&, bool)> run_keeper(const std::string& dir, const std::string& keep);

// The GPU back-end's settings of one run: the seed, --spin-bound and
// --recipe (off when not given).
GpuRunSettings gpu_settings(const Options& o, uint64_t seed);

// With a recipe on: the slowdown, as kernel time a run, median, against
// the first few seeds run again without the recipe (timed only, not
// checked), and the first run's perturbed launch.
void report_perturbation(const Options& o, const std::string& launch, const std::vector<double>& perturbed_ms,
                         const std::function<double(uint64_t seed)>& unperturbed_ms, uint64_t first_seed, std::ostream& out);

// The configuration stored in every history of a run: a JSON object with
// the structure, every run option (the back-end too), and the workload when
// it is not the seed's own. With the history's seed, it reruns the run: the
// simulator's schedule follows from the seed.
std::string run_configuration(const Structure& s, const Options& o, const Ops* workload);

// The simulator configuration of a request's runs (PCT's step estimate
// measured and stored into the options when not given).
sim::SimConfig simulator_config(const Target& t, Options& o, const Ops& probe_workload, uint64_t probe_seed);

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
