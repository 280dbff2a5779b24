// What one recorded GPU run of a structure brings back to the host: its
// log, its faults and its memory (for the quiescent invariants). Plain C++.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "stress/seam/recipe.hpp"
#include "stress/seam/structure_memory.hpp"
#include "structures/core/cuda/device_faults.hpp"
#include "structures/core/recorder/host_log.hpp"

namespace warpcheck::gpu {

// A run's perturbation: the recipe, and the run's seed that its draws mix in.
struct Perturbation {
  PerturbRecipe recipe;
  uint64_t seed = 0;
  bool launch() const { return recipe.perturbs_launch(); }  // the perturbed kernel (apart= alone launches the plain one)
};

struct GpuRun {
  double kernel_ms = 0;
  std::string launch;  // a perturbed launch's shape, in words (empty when not perturbed)
  std::unique_ptr<HostLog> log;
  cuda_backend::device_faults faults{};
  std::unique_ptr<HostMemory> memory;  // the structure's arrays, copied back after the run
  std::vector<uintptr_t> device_bases;  // where those arrays were on the device: names a fault's address
};

}  // namespace warpcheck::gpu
