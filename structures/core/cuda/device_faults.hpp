// What a GPU run reports back when a team gives up: the first fault wins the
// details, every fault is counted. Lives in device memory; plain C++ so that
// the host reads it with the same definition.
#pragma once
#include <cstdint>

#include "structures/core/cuda/perturb_params.hpp"

namespace warpcheck::cuda_backend {

enum class fault_kind : uint32_t { none = 0, spin_bound = 1, structure = 2 };

struct device_faults {
  uint32_t count;  // faults seen
  uint32_t kind;   // fault_kind of the first
  uint32_t team, lane;
  uint64_t address;     // the word it waited on / failed at
  uint64_t iterations;  // spin iterations, for spin_bound
  // Spins that gave up early because a fault had been recorded: the run has
  // failed, so waiting out every team's bound only delays the verdict.
  uint32_t gave_up;
  uint32_t reserved;
};

struct device_context {
  uint64_t spin_bound;    // iterations of one spin loop before it gives up
  device_faults* faults;  // device memory
  // Read only by kernels built for perturbation (basic_warp_team<true>, ...).
  perturb_params perturb{};
};

}  // namespace warpcheck::cuda_backend
