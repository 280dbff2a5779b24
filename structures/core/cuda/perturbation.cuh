// Seeded perturbation on the device (perturb_params.hpp says what a recipe
// sets). Only kernels instantiated with a perturbing team
// (basic_warp_team<true>, basic_block_team<true>) call any of this: the
// teams of every other kernel are the same code as before, not a branch.
//
// Decisions are a pure function of (seed, team, the team's point counter,
// the point): the lanes of a warp that reach a point together take the
// lowest one's counter (one shuffle), so they decide together and stay in
// step. The hardware's timing still varies from run to run: a recipe makes
// a run's perturbation repeatable, not its interleaving.
#pragma once
#include <cstdint>

#include "models/base/splitmix.hpp"
#include "structures/core/cuda/memory.cuh"
#include "structures/core/cuda/perturb_params.hpp"

namespace warpcheck::cuda_backend {

__device__ __forceinline__ uint64_t perturb_clock_ns() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Does team `team` take part? (hash of the seed and the team)
__device__ __forceinline__ bool perturb_team_selected(const perturb_params& p, uint32_t team) {
  if (p.one_team != ~0u) return team == p.one_team;
  if (p.team_num >= p.team_den) return true;
  return detail::mix64(p.seed ^ (uint64_t(team) << 32) ^ 0x7E4A5u) % p.team_den < p.team_num;
}

// A point that fired waits: how long is drawn from `h` (fixed, uniform up
// to delay_ns, or exponential with mean delay_ns capped at 8x); the wait is
// __nanosleep (the warp gives up its issue slots; the hardware sleeps
// roughly [0, 2 x ns], at most 1 ms a call) or a busy loop on
// %globaltimer (the warp keeps issuing). Out of line, with scalar
// arguments: one copy in the kernel, not one at every point.
static __device__ __noinline__ void perturb_delay(uint64_t h, uint32_t delay_ns, uint32_t dist, uint32_t wait) {
  const uint64_t h2 = detail::mix64(h);
  uint32_t ns = delay_ns;
  if (dist == static_cast<uint32_t>(perturb_dist::uniform)) {
    ns = static_cast<uint32_t>((h2 & 0xFFFFFFFFu) % (uint64_t(delay_ns) + 1));
  } else if (dist == static_cast<uint32_t>(perturb_dist::exponential)) {
    const float u = (static_cast<float>(h2 & 0xFFFFFFu) + 1.0f) / 16777216.0f;  // (0, 1]
    const float x = -__logf(u);
    ns = static_cast<uint32_t>((x < 8.0f ? x : 8.0f) * static_cast<float>(delay_ns));
  }
  if (ns == 0) return;
  if (wait == static_cast<uint32_t>(perturb_wait::sleep)) {
    while (ns) {
      const uint32_t n = ns < 1000000u ? ns : 1000000u;
      __nanosleep(n);
      ns -= n;
    }
    return;
  }
  const uint64_t until = perturb_clock_ns() + ns;
  while (perturb_clock_ns() < until) {
  }
}

__device__ __forceinline__ void perturb_delay(const perturb_params& p, uint64_t h) {
  perturb_delay(h, p.delay_ns, static_cast<uint32_t>(p.dist), static_cast<uint32_t>(p.wait));
}

// A team's perturbation state: its number (the launch shuffle's), whether
// it takes part, and the points it reached.
struct perturb_team_state {
  uint32_t team = 0;
  uint32_t counter = 0;
  bool selected = false;
};

// One decision at a point.
struct perturb_draw {
  bool fire = false;
  uint64_t h = 0;     // the draw: the delay and (split) the late lanes come from it
  unsigned mask = 0;  // the lanes that decided together
  __device__ __forceinline__ uint32_t lanes_late() const {
    const uint32_t late = static_cast<uint32_t>(h) & mask;
    return late ? late : mask;  // somebody waits
  }
};

// The lanes that reach the point together take the lowest one's counter
// (all of them continue from it), so they decide together. Out of line
// with scalar arguments; only the test of the point's bit stays inline.
struct perturb_decision {
  uint64_t h;
  uint32_t mask, counter;
};
static __device__ __noinline__ perturb_decision perturb_decide_at(uint64_t seed, uint32_t team, uint32_t counter, uint32_t point) {
  perturb_decision d;
  d.mask = __activemask();
  const uint32_t c = __shfl_sync(d.mask, counter, __ffs(d.mask) - 1);
  d.counter = c + 1;
  d.h = detail::mix64(seed ^ detail::mix64((uint64_t(team) << 32) | c) ^ (uint64_t(point) << 56));
  return d;
}

__device__ __forceinline__ perturb_draw perturb_decide(const perturb_params& p, perturb_team_state& st, perturb_point point) {
  perturb_draw d;
  if (!(p.points & point) || !st.selected) return d;
  const perturb_decision x = perturb_decide_at(p.seed, st.team, st.counter, point);
  st.counter = x.counter;
  d.mask = x.mask;
  d.h = x.h;
  d.fire = (d.h >> 32) < p.threshold;
  return d;
}

// Hammer warps: the blocks before the workers. Each warp loops over the hot
// regions' lines, lane i on the line's word i: an atomic OR of zero (the
// value stays; the line's L2 slice serializes it with the workers'
// accesses), a strong load, or (evict) stores to a scratch buffer twice
// the L2's size, so the workers' lines leave the L2. It stops when the
// workers have left, a fault was recorded, or the deadline passed.
__device__ inline void perturb_hammer(const perturb_params& p, const uint32_t* faults_count) {
  const uint32_t lane = threadIdx.x & 31;
  const uint32_t warp = blockIdx.x * ((blockDim.x + 31) / 32) + threadIdx.x / 32;  // blocks of under 32 threads: a warp each
  const uint64_t start = perturb_clock_ns();
  uint32_t sink = 0;
  for (uint64_t it = 0;; ++it) {
    if ((it & 15) == 0) {
      const uint32_t done = cuda_backend::load(p.done, core::order::relaxed, core::scope::gpu);
      const uint32_t faults = cuda_backend::load(faults_count, core::order::relaxed, core::scope::gpu);
      if (done >= p.worker_threads || faults != 0 || perturb_clock_ns() - start > p.deadline_ns) break;
    }
    if (p.hammer == hammer_mode::evict) {
      if (p.scratch_words < 32) break;
      const uint64_t line = (uint64_t(warp) * 977 + it) % (p.scratch_words / 32);  // one 128-byte line a warp a step
      cuda_backend::store(p.scratch + line * 32 + lane, static_cast<uint32_t>(it), core::order::weak, core::scope::gpu);
      continue;
    }
    if (!p.regions) break;
    const hot_region& r = p.region[(warp + it) % p.regions];
    const uint64_t lines = (r.bytes + 127) / 128;
    const uint64_t word = ((warp * 7 + it) % lines) * 32 + lane;
    if (word * 4 >= r.bytes) continue;
    uint32_t* w = reinterpret_cast<uint32_t*>(r.base) + word;
    if (p.hammer == hammer_mode::rmw) atomicOr(w, p.zero);
    else sink += cuda_backend::load(w, core::order::relaxed, core::scope::gpu);
  }
  if (sink == 0x5EED5EEDu && p.zero) *p.done = sink;  // keeps the loads; never true (zero is 0)
}

// Is this block a hammer block? Then it has hammered, and the kernel returns.
__device__ __forceinline__ bool perturb_hammer_block(const perturb_params& p, const uint32_t* faults_count) {
  if (blockIdx.x >= p.hammer_blocks) return false;
  perturb_hammer(p, faults_count);
  return true;
}

// The worker block's logical number (the launch shuffle).
__device__ __forceinline__ uint32_t perturb_logical_block(const perturb_params& p) {
  const uint32_t b = blockIdx.x - p.hammer_blocks;
  return static_cast<uint32_t>((uint64_t(p.block_mul) * b + p.block_add) % p.worker_blocks);
}

// Counts the worker threads out, whichever way they leave the kernel (the
// hammer warps wait for all of them). Nothing at all when not perturbing.
template <bool Perturb>
struct perturb_worker_exit {
  __device__ explicit perturb_worker_exit(const perturb_params&) {}
};
template <>
struct perturb_worker_exit<true> {
  const perturb_params& p;
  __device__ explicit perturb_worker_exit(const perturb_params& params) : p(params) {}
  __device__ ~perturb_worker_exit() {
    if (!p.hammer_blocks) return;
    const unsigned mask = __activemask();
    if ((threadIdx.x & 31) == static_cast<uint32_t>(__ffs(mask) - 1)) atomicAdd(p.done, static_cast<uint32_t>(__popc(mask)));
  }
};

}  // namespace warpcheck::cuda_backend
