// A GPU run's failure in the simulator: its workload, in its shape, under
// schedules guided by the order its history shows (SchedulerKind::Guided,
// structures/core/sim/guidance.hpp) or, for comparison, unguided ones;
// tries until one fails as the GPU run did.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "stress/run/guide_from_history.hpp"
#include "stress/run/stress_request.hpp"

namespace warpcheck {

// The simulator's teams, lanes and shapes are bounded by memory and time:
// a GPU run with more lanes than this is not tried there.
inline constexpr uint64_t kMostSimulatorLanes = 4096;

// The simulator options that a GPU run of a planted bug lacks: those of
// the bug's declared run (--list-mutants) whose GPU options are the run's
// (--memory-model relaxed for a missing fence, --scheduler targeted, ...);
// empty when none is.
std::string declared_simulator_flags(const Structure& s, const Options& gpu_options);
// The same for a guided run: the declared scheduler's own options left out.
std::string guided_flags(const Structure& s, const std::string& simulator_flags);
// `simulator_flags` and, when they set no delays of their own, the GPU
// run's recipe's delays as the simulator's (simulator_analogue).
std::string with_recipe_delays(const std::string& simulator_flags, const Options& gpu_options);

// The simulator's run of a GPU run's workload: the GPU run's options that
// apply there, then `simulator_flags` (later values win). Throws
// std::invalid_argument when it cannot run there: more lanes than the
// simulator takes, a shape unlike the GPU run's, a workload of another shape.
StressRequest simulator_request(const Structure& s, const Options& gpu_options, const Ops& workload,
                                const std::string& simulator_flags);

// How the GPU run failed, as far as a simulator run can be held to it:
// the oracles that caught it (0: not known, any counts), and for a
// violation of a model checked key by key, the refuted key.
struct GpuFailure {
  Oracles oracles = 0;
  std::optional<int64_t> key;
  std::string text() const;  // "a violation on key 4", "any oracle"
};
// From the GPU history's check alone: a violation (on its key) when it is
// one; otherwise the history does not say (a fault or a broken invariant
// is not in it), and any oracle counts.
GpuFailure gpu_failure(const CheckResult& gpu_check);
// A simulator run caught by `by` fails as the GPU run did: by one of its
// oracles, and when it was a violation on a key, by a violation on that
// key (the run's history on that key alone is refuted).
bool fails_the_same_way(const GpuFailure& gpu, Oracles by, const History& h, const CheckOptions& check);

struct SimulatorTries {
  uint64_t first_seed = 1, tries = 100;  // schedule seeds first_seed, first_seed + 1, ...
  double check_timeout = 60;             // the checker's seconds a history
  double budget_seconds = 0;             // all the tries together (0: none); said when hit
  std::function<void(uint64_t done, uint64_t of)> progress;  // after each try
};

struct SimulatorReplay {
  uint64_t tries = 0;                 // run
  bool out_of_budget = false;
  std::optional<SeedFailure> found;   // the first try that failed as the GPU run did
  Oracles by = 0;                     // what caught it
  uint64_t failed_otherwise = 0;      // tries that failed, not as the GPU run did
  // Guided tries: the one whose results were most like the GPU's.
  std::optional<sim::GuidanceReport> closest;
  uint64_t closest_seed = 0;
};

// Runs `request` (a simulator request, guided or not) under schedule seeds
// until a try fails as the GPU run did. A guided try with an operation
// where the guide holds another one shows the guide is another run's: the
// tries stop with std::invalid_argument saying so.
SimulatorReplay reproduce_in_simulator(const StressRequest& request, const GpuFailure& gpu, const SimulatorTries& tries);

}  // namespace warpcheck
