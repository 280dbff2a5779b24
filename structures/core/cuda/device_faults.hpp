// What a GPU run reports back when a team gives up: the first fault wins the
// details, every fault is counted. Lives in device memory; plain C++ so that
// the host reads it with the same definition.
#pragma once
#include <cstdint>

#include "structures/core/config.hpp"
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
  // A spin's back-off: 32 ns for its first 8 iterations, then 256 ns
  // doubling every 8 iterations up to this cap (256: a flat 256 ns, the
  // default). A larger cap thins a herd of warps retrying one lock, and
  // stretches spin_bound's time by as much.
  uint32_t backoff_cap_ns = 256;
};

// A spin's sleep at `iteration` (device_context::backoff_cap_ns): 32 ns for
// the first 8, then 256 doubling every 8 iterations, capped (and never
// below 256, so a cap of 256 or less is the flat 256 of before).
WC_HD inline uint32_t spin_backoff_ns(uint64_t iteration, uint32_t cap_ns) {
  if (iteration < 8) return 32;
  const uint64_t doublings = (iteration - 8) / 8;
  const uint64_t ns = doublings >= 24 ? ~uint64_t(0) : uint64_t(256) << doublings;
  const uint64_t cap = cap_ns > 256 ? cap_ns : 256;
  return static_cast<uint32_t>(ns < cap ? ns : cap);
}

}  // namespace warpcheck::cuda_backend
