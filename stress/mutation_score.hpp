// The mutation score: for every planted bug of the catalogues, and every
// run its declaration names, how many seeds catch it, which oracles caught
// the first failing seed (against the oracles declared), and how small the
// shrunk workload and counterexample are. The framework's own benchmark.
#pragma once
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "stress/registry.hpp"

namespace warpcheck {

// Runs the seeds of a simulator run given as stress options ("--mode map
// --mutant torn_read"), counting the failing ones; keeps the first and
// reruns it to see it replay (the same schedule, the same oracles).
struct Hunt {
  uint64_t seeds = 0, caught = 0;
  std::optional<uint64_t> first_seed;
  Oracles first_caught_by = 0;
  bool replays = false;
  std::optional<SeedFailure> first;
};
Hunt hunt(const Structure& s, const std::string& flags, uint64_t seeds, bool stop_at_first);

struct MutantScore {
  std::string structure, mutant, run;
  Oracles expected = 0;
  uint64_t seeds = 0, caught = 0;
  std::optional<uint64_t> first_seed;
  Oracles first_caught_by = 0;
  bool replays = false;                 // the first failing seed gives the same run again
  size_t shrunk_ops = 0, workload_ops = 0;  // after / before shrinking (0: not shrunk)
  size_t counterexample_ops = 0;        // the checker's shrunk counterexample (0: none)
  bool as_declared() const { return caught > 0 && (first_caught_by & expected) && replays; }
};

struct ScoreOptions {
  std::optional<uint64_t> seeds;  // each run's seeds (default: the declaration's)
  bool first_only = false;        // stop each run at its first failure (tests)
  bool shrink = true;
};

// One mutant in one of its declared runs (`run` indexes MutantSpec::runs).
MutantScore score_mutant(const Structure& s, const MutantSpec& m, size_t run, const ScoreOptions& o);

// Every mutant of `only` (or of every structure), as a markdown table.
// Returns the number of rows not as declared.
int print_mutation_score(const Registry& r, const Structure* only, const ScoreOptions& o, std::ostream& out);

}  // namespace warpcheck
