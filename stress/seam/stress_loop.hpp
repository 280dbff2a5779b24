// The stress loop: run a target under many seeds, check every history,
// count verdicts and faults, keep the first failure with what reproduces it.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "linearizability/checker.hpp"
#include "structures/core/sim/guidance.hpp"

namespace warpcheck {

// How a run that faulted failed.
enum class FaultKind : uint8_t {
  SpinBound,       // a spin loop hit its bound: suspected deadlock or livelock
  Shadow,          // an access broke a pool unit's shadow state (use after free, ...)
  StructureCheck,  // the structure's own check failed (full, exhausted allocator)
  Zombie,          // a decision rested on a unit read when it was already a zombie
  Other,           // a stuck collective, the step limit, a replay that does not fit
};

// The oracle a fault of this kind is (failure_record.hpp).
inline FailureOracle oracle_of(FaultKind k) {
  switch (k) {
    case FaultKind::SpinBound: return FailureOracle::Deadlock;
    case FaultKind::Shadow: return FailureOracle::Shadow;
    case FaultKind::StructureCheck: return FailureOracle::StructureCheck;
    case FaultKind::Zombie: return FailureOracle::Zombie;
    case FaultKind::Other: return FailureOracle::Fault;
  }
  return FailureOracle::Fault;
}

// One seed's run on any back-end.
struct SeedRun {
  bool fault = false;         // the run itself failed: deadlock, shadow violation, ...
  FaultKind fault_kind = FaultKind::Other;
  std::string fault_message;  // one line
  std::string fault_details;  // blocked teams, wait-for cycle, ...
  History history;            // what was recorded (with pending operations when it faulted)
  std::vector<std::string> invariant_violations;  // of the structure at quiescence
  std::string schedule;       // the simulator's printed schedule; empty elsewhere
  uint64_t steps = 0;         // simulator steps
  double kernel_ms = 0;       // GPU: the recorded launch's kernel time
  std::string launch;         // GPU, perturbed: the launch's shape, in words
  std::optional<sim::GuidanceReport> guidance;  // a guided simulator run: how closely it followed the GPU's history
  // A fault, a broken invariant or a violation; with points_must_hold,
  // also linearization-point hints that do not explain the history.
  bool failed(const CheckResult& c, bool points_must_hold = false) const {
    return fault || !invariant_violations.empty() || c.verdict == Verdict::Violation ||
           (points_must_hold && points_not_explained(c));
  }
  static bool points_not_explained(const CheckResult& c) {
    return c.hint_replay && c.hint_replay->outcome == HintReplay::Outcome::NotExplained;
  }
};

struct SeedFailure {
  uint64_t seed = 0;
  SeedRun run;
  CheckResult check;
};

struct StressProgress {
  uint64_t done = 0, total = 0, failures = 0;
  double seconds = 0;
};

struct StressOptions {
  uint64_t first_seed = 1, seeds = 100;
  bool keep_going = false;  // run every seed even after a failure
  bool points_must_hold = false;  // hints that do not explain a history fail the run
  CheckOptions check;
  std::function<void(const StressProgress&)> progress;  // called about once a second
  // Called for every failing run (a campaign lists them all).
  std::function<void(uint64_t seed, const SeedRun&, const CheckResult&)> on_failure;
  // Called for every run, failing or not (--keep writes some of them).
  std::function<void(uint64_t seed, const SeedRun&, const CheckResult&, bool failed)> on_run;
};

struct StressSummary {
  uint64_t runs = 0, operations = 0, steps = 0;
  uint64_t linearizable = 0, violations = 0, unknown = 0, faults = 0, invariant_failures = 0;
  uint64_t failed_runs = 0;  // runs with any of the three
  // Linearization-point hints (structures that record a proof's points):
  // runs whose hints explained the history, and runs whose hints did not.
  uint64_t points_explained = 0, points_not_explained = 0;
  double run_seconds = 0, check_seconds = 0;
  std::optional<SeedFailure> first_failure;
  std::optional<SeedFailure> first_unexplained;  // the first run whose hints did not explain it
  // The first run the checker left undecided: its seed, and which checker and why.
  std::optional<std::pair<uint64_t, std::string>> first_unknown;
  bool failed() const { return failed_runs > 0; }
};

StressSummary run_stress(const std::function<SeedRun(uint64_t seed)>& run_one, const StressOptions& options);

}  // namespace warpcheck
