// A back-end's report of one run, as the stress loop's SeedRun.
#pragma once
#include "stress/gpu/gpu_run.hpp"
#include "stress/seam/structure.hpp"
#include "stress/harness/sim_harness.hpp"
#include "stress/harness/threads_harness.hpp"
#include "stress/seam/stress_loop.hpp"

namespace warpcheck {

SeedRun seed_run_from_sim(TargetRun&& run);
SeedRun seed_run_from_sim(CheckedRun&& run);
SeedRun seed_run_from_threads(ThreadsRun&& run);
// A GPU run recorded for `model` from the workload of `g.seed`: its history
// and its first fault (the memory stays in run.memory for the invariants).
SeedRun seed_run_from_gpu(const gpu::GpuRun& run, ModelId model, const GpuRunSettings& g);
// A GPU run's faults in one line ("GPU: 64 fault(s); first: warp 3 lane 0,
// spin bound, waiting on chunk[17]+248"), its lane named as `team_word`'s
// (sim::lane_place): `bases` are where the arrays of `layout` were on the
// device, to name the address.
std::string describe_gpu_faults(const cuda_backend::device_faults& f, const MemoryLayout& layout,
                                const std::vector<uintptr_t>& bases, const std::string& team_word = "team");
// What a GPU run says in a build without the CUDA back-end.
[[noreturn]] void no_cuda_back_end();

}  // namespace warpcheck
