// The suite's runs as child processes (`warpcheck stress ...`), several at
// a time: the runs are independent, and one process a core keeps a 2-core
// machine's main job within minutes. A run on the GPU runs alone.
#pragma once
#include <cstdint>
#include <ostream>
#include <vector>

#include "stress/commands/suite.hpp"

namespace warpcheck::cli {

// Prints each run's output in declared order, as soon as it and the runs
// before it have ended, then the table; returns the number of runs whose
// exit code was not the declared one.
int run_suite_entries(const std::vector<SuiteEntry>& entries, uint32_t jobs, std::ostream& out);

}  // namespace warpcheck::cli
