// The stress suite: every structure's declared suite runs of one tag, each
// judged by the exit code it must give; the main job runs the "main" tag.
// Each run is a `warpcheck stress` command line (suite_entries); the
// command runs them, several at a time (tools/suite_runner.hpp).
#pragma once
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "stress/seam/registry.hpp"

namespace warpcheck {

struct SuiteOptions {
  std::string tag = "main";
  std::optional<Backend> backend;  // default: the GPU when there is one and the structure runs there, else the simulator
  std::string out_dir;             // failures' files, one folder a run (empty: none)
  std::string keep = "unknown";    // with out_dir: the runs each suite run keeps there (stress --keep)
};

// One declared run, as the stress command that runs it.
struct SuiteEntry {
  std::string structure, what;
  int expect = 0;
  std::vector<std::string> stress_args;  // after `warpcheck stress`
  bool on_gpu = false;                   // runs alone: the device is shared
  std::string note;                      // said before its output ("on the simulator: ...")
  std::string refused;                   // why it cannot run (its exit is then 3)
};

std::vector<SuiteEntry> suite_entries(const Registry& r, const Structure* only, const SuiteOptions& o);

struct SuiteResult {
  int exit = 3;
  double seconds = 0;
};
// The closing table; returns the number of runs whose exit code was not the expected one.
int print_suite_table(const std::vector<SuiteEntry>& entries, const std::vector<SuiteResult>& results, std::ostream& out);

}  // namespace warpcheck
