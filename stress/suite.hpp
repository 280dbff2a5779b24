// The stress suite: every structure's declared suite runs of one tag, each
// judged by the exit code it must give; the main job runs the "main" tag.
#pragma once
#include <optional>
#include <ostream>
#include <string>

#include "stress/registry.hpp"

namespace warpcheck {

struct SuiteOptions {
  std::string tag = "main";
  std::optional<Backend> backend;  // default: the GPU when there is one and the structure runs there, else the simulator
  std::string out_dir;             // failures' files, one folder a run (empty: none)
  std::string keep = "unknown";    // with out_dir: the runs each suite run keeps there (stress --keep)
};

// Returns the number of runs whose exit code was not the expected one.
int run_suite(const Registry& r, const Structure* only, const SuiteOptions& o, std::ostream& out, std::ostream& err);

}  // namespace warpcheck
