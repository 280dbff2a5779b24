// A back-end's report of one run, as the stress loop's SeedRun.
#pragma once
#include "stress/gpu/gpu_run.hpp"
#include "stress/harness/sim_harness.hpp"
#include "stress/harness/threads_harness.hpp"
#include "stress/stress_loop.hpp"

namespace warpcheck {

SeedRun seed_run_from_sim(TargetRun&& run);
SeedRun seed_run_from_threads(ThreadsRun&& run);
// A GPU run: its history, and its first fault (the memory stays in run.memory for the invariants).
SeedRun seed_run_from_gpu(const gpu::GpuRun& run, HistoryMeta meta);

}  // namespace warpcheck
