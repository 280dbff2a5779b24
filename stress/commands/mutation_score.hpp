// The mutation score: for every planted bug of the catalogues, and every
// run its declaration names, how many seeds catch it, which oracles caught
// the first failing seed (against the oracles declared), and how small the
// shrunk workload and counterexample are. The framework's own benchmark.
// In the simulator a failing seed must also replay; on the GPU runs are
// not deterministic, so the score counts catches only.
#pragma once
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "stress/seam/registry.hpp"

namespace warpcheck {

// Runs the seeds of a run given as stress options ("--mode map --mutant
// torn_read") on a back-end, counting the failing ones; keeps the first and,
// in the simulator, reruns it to see it replay (the same schedule, the same
// oracles).
struct Hunt {
  uint64_t seeds = 0, caught = 0;
  std::optional<uint64_t> first_seed;
  Oracles first_caught_by = 0;
  bool replays = false;
  double seconds_to_first = 0;  // wall time until the first catch, checks included
  std::optional<SeedFailure> first;
};
Hunt hunt(const Structure& s, Backend b, const std::string& flags, uint64_t seeds, bool stop_at_first);

struct MutantScore {
  std::string structure, mutant, run;
  Backend backend = Backend::Sim;
  Oracles expected = 0;
  Hunt hunt;
  size_t shrunk_ops = 0, workload_ops = 0;  // after / before shrinking (0: not shrunk)
  size_t counterexample_ops = 0;            // the checker's shrunk counterexample (0: none)
  bool benign = false;  // declared not a bug: as declared when nothing catches it
  std::string reproduce;  // when caught: the command line that reruns its first seed
  std::string declared_scheduler;  // under ScoreOptions::scheduler: the run's own, when another
  bool as_declared() const {
    if (benign) return hunt.caught == 0;
    return hunt.caught > 0 && (hunt.first_caught_by & expected) && (backend != Backend::Sim || hunt.replays);
  }
};

struct ScoreOptions {
  Backend backend = Backend::Sim;
  std::optional<uint64_t> seeds;  // each run's seeds (default: the declaration's)
  bool first_only = false;        // stop each run at its first failure (tests)
  bool shrink = true;             // simulator failures only
  // The simulator's scheduler in every run instead of the one its flags
  // name, perhaps with options of its own ("pos --pos-unit lane"): a
  // comparison of schedulers; empty: the declared one.
  std::string scheduler;
};

// One mutant in one of its declared runs (`run` indexes MutantSpec::runs).
MutantScore score_mutant(const Structure& s, const MutantSpec& m, size_t run, const ScoreOptions& o);

// Every mutant of `only` (or of every structure that runs on the back-end),
// as a markdown table. Returns the number of rows not as declared.
int print_mutation_score(const Registry& r, const Structure* only, const ScoreOptions& o, std::ostream& out);

}  // namespace warpcheck
