// What a stress run prints: the summary tables, and a failure with its
// files and the commands that reproduce it.
#pragma once
#include <ostream>
#include <string>

#include "stress/seam/structure.hpp"

namespace warpcheck {

// "3 teams of 32 lanes, 192 operation slots"
std::string describe_target(const Target& t);

void print_summary(const StressSummary& sum, Backend backend, bool judge_points, std::ostream& out);

// What failed in a failing run, in one line: its fault, its first broken
// invariant, the violation's reason, or the points that did not explain it.
std::string describe_failure(const SeedRun& run, const CheckResult& check);

// The record a failing run's history keeps (failure_record.hpp): the
// oracle that fired first (a fault, a broken invariant, the checker, the
// points, in describe_failure's order), what it saw, and `reproduce`.
FailureRecord failure_record(const SeedRun& run, const CheckResult& check, std::string reproduce);

// The oracle that fired first in a failing run (describe_failure's order).
FailureOracle first_oracle(const SeedRun& run, const CheckResult& check);

// The history of a failing run with its failure record in it.
History with_failure_record(const SeedRun& run, const CheckResult& check, std::string reproduce);

struct FailureFiles {
  std::string out_dir;           // empty: write no files
  const Ops* workload = nullptr; // the failing workload, when it is not the seed's own
  std::string reproduce_flags;   // "--structure X --option value ..."
  std::string history_path;      // the run replays this history (warpcheck repro FILE)
  std::string workload_flag;     // "--workload @FILE" as the user gave it, or empty
  std::string guide;             // a guided run's guide history: kept in the folder as guide.bin
};

// Prints the first failure (the shrunk one when given) and the first run
// whose recorded linearization points did not explain it; writes the
// failure's history, HTML report, workload and schedule into out_dir.
// Returns the exit code: 1 for a failure, else 2 when a check was
// undecided, else 0.
int report_failures(const StressSummary& sum, const SeedFailure* shrunk, const FailureFiles& files, std::ostream& out);

}  // namespace warpcheck
