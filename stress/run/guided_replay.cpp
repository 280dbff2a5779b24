#include "stress/run/guided_replay.hpp"

#include <chrono>

#include "linearizability/formats.hpp"

namespace warpcheck {

namespace {

using Clock = std::chrono::steady_clock;

// More results as the GPU's; then fewer forced gates, fewer unmatched operations.
bool closer(const sim::GuidanceReport& a, const sim::GuidanceReport& b) {
  if (a.equal != b.equal) return a.equal > b.equal;
  if (a.forced != b.forced) return a.forced < b.forced;
  return a.unmatched < b.unmatched;
}

}  // namespace

std::string declared_simulator_flags(const Structure& s, const Options& gpu_options) {
  const size_t m = mutant_index(s.spec, gpu_options);
  if (!m) return "";
  for (const std::string& run : s.spec.mutants[m - 1].runs) {
    const SplitFlags f = split_flags(s, run, Backend::Gpu);
    bool same = true;
    for (const FlagItem& item : flag_items(s, f.here))
      same = same && gpu_options.declared(item.name) &&
             (item.flag ? gpu_options.flag(item.name) : gpu_options.text(item.name) == item.value);
    if (same) return f.elsewhere;
  }
  return "";
}

std::string guided_flags(const Structure& s, const std::string& simulator_flags) {
  std::string out;
  for (const FlagItem& f : flag_items(s, simulator_flags))
    if (f.name != "scheduler" && f.name.rfind("pct-", 0) != 0) out += f.text();
  return out + " --scheduler guided";
}

std::string with_recipe_delays(const std::string& simulator_flags, const Options& gpu_options) {
  if (simulator_flags.find("--delays") != std::string::npos) return simulator_flags;
  return simulator_flags + simulator_analogue(gpu_settings(gpu_options, 0).recipe);
}

StressRequest simulator_request(const Structure& s, const Options& gpu_options, const Ops& workload,
                                const std::string& simulator_flags) {
  // The GPU run's options that the simulator takes, but its spin bound (the
  // GPU's is far longer than the simulator's steps need); its recipe does
  // not apply there (the caller adds the simulator's analogue).
  std::string flags;
  for (const FlagItem& f : flag_items(s, gpu_options.run_flags_for(Backend::Sim)))
    if (f.name != "spin-bound") flags += f.text();
  StressRequest r = request_from_flags(s, Backend::Sim, flags + " " + simulator_flags);
  r.workload = workload;
  const Target here = s.configure(r.options), there = s.configure(gpu_options);
  const uint64_t lanes = uint64_t(here.shape.teams) * here.sim_lanes;
  if (lanes > kMostSimulatorLanes)
    throw std::invalid_argument("the GPU run's shape, " + shape_text(there) + " (" + std::to_string(lanes) +
                                " lanes in the simulator), is past the simulator's " + std::to_string(kMostSimulatorLanes) +
                                ": reproduce it on the GPU with fewer --teams first");
  if (!same_shape(here, there))
    throw std::invalid_argument("the simulator's shape (" + shape_text(here) + ") is not the GPU run's (" + shape_text(there) + ")");
  if (workload.size() != here.shape.slots())
    throw std::invalid_argument("the workload has " + std::to_string(workload.size()) + " operation slots, the shape " +
                                std::to_string(here.shape.slots()));
  return r;
}

std::string GpuFailure::text() const {
  if (!oracles) return "any oracle (the history alone does not say how the GPU run failed: faults and invariants are not in it)";
  return oracle_names(oracles) + (key ? ", a violation on key " + std::to_string(*key) : std::string());
}

GpuFailure gpu_failure(const CheckResult& gpu_check) {
  GpuFailure f;
  if (gpu_check.verdict != Verdict::Violation) return f;
  f.oracles = kOracleChecker;
  if (gpu_check.counterexample) f.key = gpu_check.counterexample->key;
  return f;
}

bool fails_the_same_way(const GpuFailure& gpu, Oracles by, const History& h, const CheckOptions& check) {
  if (!by) return false;
  if (!gpu.oracles) return true;
  if (!(by & gpu.oracles)) return false;
  if (!gpu.key || !(by & kOracleChecker)) return true;
  // The run's operations on that key alone: refuted there, as on the GPU.
  History part = h;
  part.ops.clear();
  for (const Operation& op : h.ops)
    if (op.data.key == *gpu.key) {
      part.ops.push_back(op);
      part.ops.back().id = part.ops.size() - 1;
    }
  return check_history(part, check).verdict == Verdict::Violation;
}

SimulatorReplay reproduce_in_simulator(const StressRequest& request, const GpuFailure& gpu, const SimulatorTries& tries) {
  const SeedRunner runner(request);
  const bool points = runner.options().flag("require-points");
  CheckOptions quick;
  quick.timeout_seconds = tries.check_timeout;
  quick.shrink = false;
  const auto start = Clock::now();
  SimulatorReplay out;
  for (uint64_t k = 0; k < tries.tries; ++k) {
    if (tries.budget_seconds > 0 && k > 0 && std::chrono::duration<double>(Clock::now() - start).count() >= tries.budget_seconds) {
      out.out_of_budget = true;
      break;
    }
    const uint64_t seed = tries.first_seed + k;
    SeedRun run = runner.run(seed);
    ++out.tries;
    if (tries.progress) tries.progress(out.tries, tries.tries);
    if (const auto& g = run.guidance) {
      if (g->conflicting)
        throw std::invalid_argument("the GPU run's history does not fit the simulator's run: " + g->first_unmatched +
                                    " ran here, where the history has another operation (another workload or shape?)");
      if (!out.closest || closer(*g, *out.closest)) {
        out.closest = g;
        out.closest_seed = seed;
      }
    }
    const Oracles by = caught_by(run, check_history(run.history, quick), points);
    if (!by) continue;
    if (!fails_the_same_way(gpu, by, run.history, quick)) {
      ++out.failed_otherwise;
      continue;
    }
    CheckOptions full = quick;
    full.shrink = true;  // the report's counterexample
    SeedFailure f;
    f.seed = seed;
    f.check = check_history(run.history, full);
    f.run = std::move(run);
    out.found = std::move(f);
    out.by = by;
    break;
  }
  return out;
}

}  // namespace warpcheck
