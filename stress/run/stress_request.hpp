// What `warpcheck stress` or `warpcheck repro` asks for, and its runs
// seed by seed: the request made from options, a history or a run
// configuration; the run configuration a history stores; the simulator's
// configuration; the runner that the stress command, the replays and a
// campaign's shards share.
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

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

// The GPU back-end's settings of one run: the seed, --spin-bound and
// --recipe (off when not given).
GpuRunSettings gpu_settings(const Options& o, uint64_t seed);

// The configuration stored in every history of a run: a JSON object with
// the structure, every run option (the back-end too), and the workload when
// it is not the seed's own. With the history's seed, it reruns the run: the
// simulator's schedule follows from the seed.
std::string run_configuration(const Structure& s, const Options& o, const Ops* workload);

// The simulator configuration of a request's runs (PCT's step estimate
// measured and stored into the options when not given).
sim::SimConfig simulator_config(const Target& t, Options& o, const Ops& probe_workload, uint64_t probe_seed);

// The guide of a request's guided run: the one it holds, or --guide's
// file, checked against the run (the same structure, shape and workload).
// Throws std::invalid_argument saying what is missing or differs.
std::shared_ptr<const sim::Guide> guide_of(const StressRequest& request, const Target& target, const Ops& workload);

// A target's shape in words ("4 teams of 32 lanes, 2 operations a lane"),
// and whether two targets have the same one (as the simulator runs it).
std::string shape_text(const Target& t);
bool same_shape(const Target& a, const Target& b);

}  // namespace warpcheck
