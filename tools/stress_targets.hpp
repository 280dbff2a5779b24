// The structures `warpcheck stress` can run: each turns its options into a
// seeded run on the simulator, real threads or the GPU.
#pragma once
#include <functional>
#include <string>

#include "stress/stress_loop.hpp"
#include "stress/workload_gen.hpp"
#include "structures/core/sim/simulator.hpp"
#include "tools/cli_args.hpp"

namespace warpcheck::cli {

enum class Backend { Sim, Threads, Gpu };

using Ops = std::vector<core::workload_op>;

// A structure ready to run a workload (its shape's teams x lanes x per-lane operations).
struct StressTarget {
  std::string summary;  // one line: structure, shape, mutant
  std::string flags;    // the options that rebuild it, for the reproduce line
  uint32_t teams = 0;
  uint32_t lanes = 32;  // lanes a team in the simulator
  WorkloadShape shape;  // what its workloads look like
  std::function<SeedRun(const sim::SimConfig&, const Ops&)> sim;  // the config's seed: schedule (and hash function)
  std::function<SeedRun(uint64_t seed, const Ops&)> threads;
  std::function<SeedRun(uint64_t seed, uint64_t spin_bound, const Ops&)> gpu;  // empty without CUDA
};

// `--structure sorted-set|slabhash` and its options.
StressTarget make_stress_target(const Args& args, Backend backend);
void print_mutants(std::ostream& out);

}  // namespace warpcheck::cli
