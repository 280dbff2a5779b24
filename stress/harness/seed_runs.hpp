// A back-end's report of one run, as the stress loop's SeedRun.
#pragma once
#include "stress/gpu/gpu_run.hpp"
#include "stress/harness/sim_harness.hpp"
#include "stress/harness/threads_harness.hpp"
#include "stress/stress_loop.hpp"

namespace warpcheck {

SeedRun seed_run_from_sim(TargetRun&& run);
SeedRun seed_run_from_sim(CheckedRun&& run);
SeedRun seed_run_from_threads(ThreadsRun&& run);
// A GPU run recorded for `model` from the workload of `seed`: its history
// and its first fault (the memory stays in run.memory for the invariants).
SeedRun seed_run_from_gpu(const gpu::GpuRun& run, ModelId model, uint64_t seed);
// What a GPU run says in a build without the CUDA back-end.
[[noreturn]] void no_cuda_back_end();

}  // namespace warpcheck
