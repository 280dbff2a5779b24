// Seeded perturbation of a GPU run, as the device sees it: which of the
// layer's scheduling points may delay their team, how long, which teams,
// how the launch maps blocks to teams, and what the hammer warps hit. Plain
// C++ (the host fills it from a recipe, stress/seam/recipe.hpp; the launch
// plan, stress/gpu/perturb_launch.cuh). A kernel that is not built for
// perturbation never reads it (structures/core/cuda/perturbation.cuh).
#pragma once
#include <cstdint>

namespace warpcheck::cuda_backend {

// The layer's scheduling points (the simulator's too): bits of `points`.
enum perturb_point : uint32_t {
  kPointLoad = 1,    // load, load_coalesced: the delay comes after the load
  kPointStore = 2,   // before the store
  kPointRmw = 4,     // cas, exchange, fetch_*: before the atomic
  kPointFence = 8,   // before the fence
  kPointLock = 16,   // lock_acquired (after taking it), lock_released (before giving it back)
  kPointSpin = 32,   // one iteration of a bounded spin, on top of its back-off
  kAllPoints = 63,
};

enum class perturb_dist : uint32_t { fixed = 0, uniform = 1, exponential = 2 };
enum class perturb_wait : uint32_t { sleep = 0, spin = 1 };
enum class hammer_mode : uint32_t { rmw = 0, load = 1, evict = 2 };

// A region the hammer warps hit: the first `bytes` of a structure's array.
struct hot_region {
  uint64_t base;   // device address
  uint64_t bytes;  // a multiple of 4
};

struct perturb_params {
  uint64_t seed;            // the run's perturbation seed (the workload seed mixed with the recipe's)
  uint64_t threshold;       // a point fires when a 32-bit draw is below this (probability x 2^32)
  uint32_t points;          // perturb_point bits; 0: no delays
  uint32_t delay_ns;        // fixed: the delay; uniform: the largest; exponential: the mean (capped at 8x)
  perturb_dist dist;
  perturb_wait wait;
  uint32_t split;           // at a load that fires: a seed-chosen subset of the lanes loads after the delay
  uint32_t team_num, team_den;  // teams taking part: those whose hash mod den is below num
  uint32_t one_team;        // or only this one (~0u: not used)
  // The launch: hammer blocks first (physical blocks [0, hammer_blocks)),
  // then the workers; worker block b runs as logical block (mul * b + add) mod worker_blocks.
  uint32_t hammer_blocks, worker_blocks;
  uint32_t block_mul, block_add;
  // Hammer warps: what they do and where; they stop when every worker
  // thread has left (done reaches worker_threads), a fault was recorded,
  // or after deadline_ns of %globaltimer.
  hammer_mode hammer;
  uint32_t regions;
  static constexpr uint32_t kMaxRegions = 6;
  hot_region region[kMaxRegions];
  uint32_t* scratch;        // evict: a buffer twice the L2's size
  uint64_t scratch_words;
  uint32_t* done;           // worker threads that have left the kernel
  uint32_t worker_threads;
  uint32_t zero;            // 0, but not known to the compiler: the hammer's atomic OR changes nothing
  uint64_t deadline_ns;
};

}  // namespace warpcheck::cuda_backend
