// A perturbed launch, planned on the host from a recipe and the run's seed
// (docs/gpu-perturbation.md): the launch shape (threads a block, from the
// shapes the kernel allows, and the block-to-team permutation), the hammer
// blocks in front of the workers, the dynamic shared memory that caps the
// resident blocks an SM, and the device's perturb_params. Every choice is a
// function of the recipe and the seed, so a history's recipe and seed plan
// the same launch again.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "models/base/splitmix.hpp"
#include "stress/gpu/cuda_check.cuh"
#include "stress/gpu/gpu_run.hpp"
#include "structures/core/cuda/device_faults.hpp"

namespace warpcheck::gpu {

// A shape a kernel can run its teams in: threads a block, and the blocks that makes.
struct LaunchShape {
  uint32_t threads = 0, worker_blocks = 0;
};

// Warp teams in blocks of whole warps: every block size of 32 to 1,024
// threads that divides the teams evenly, up to `max_threads`; the first is
// `preferred` threads when it fits (the unperturbed launch's).
inline std::vector<LaunchShape> warp_team_shapes(uint32_t teams, uint32_t preferred, uint32_t max_threads = 1024) {
  std::vector<LaunchShape> out;
  for (uint32_t t = 32; t <= max_threads; t *= 2)
    if (teams % (t / 32) == 0) out.push_back({t, teams / (t / 32)});
  std::stable_partition(out.begin(), out.end(), [&](const LaunchShape& s) { return s.threads == preferred; });
  return out;
}

struct PerturbedLaunch {
  uint32_t threads = 0, blocks = 0;  // blocks: hammer blocks + worker blocks
  size_t shared_bytes = 0;           // dynamic shared memory a block
  int blocks_per_sm = 0;             // what the occupancy calculator allows with it
  cuda_backend::perturb_params params{};
  std::string describe() const {
    std::string s = std::to_string(params.worker_blocks) + " blocks x " + std::to_string(threads) + " threads";
    if (params.block_mul != 1 || params.block_add != 0)
      s += ", block b runs as (" + std::to_string(params.block_mul) + "b + " + std::to_string(params.block_add) + ") mod " +
           std::to_string(params.worker_blocks);
    if (params.hammer_blocks) s += ", " + std::to_string(params.hammer_blocks) + " hammer block(s) in front";
    if (shared_bytes) s += ", " + std::to_string(shared_bytes) + " B dynamic shared memory";
    if (blocks_per_sm) s += " (" + std::to_string(blocks_per_sm) + " blocks an SM)";
    return s;
  }
};

namespace perturb_plan {

// evict: a scratch buffer twice the L2's size, made once a process.
inline cuda_backend::perturb_params& with_scratch(cuda_backend::perturb_params& p) {
  static uint32_t* scratch = nullptr;
  static uint64_t words = 0;
  if (!scratch) {
    int device = 0, l2 = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    check(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device), "cudaDeviceGetAttribute");
    words = std::max<uint64_t>(uint64_t(l2) * 2 / 4, 1 << 20);
    check(cudaMalloc(&scratch, words * 4), "cudaMalloc (hammer scratch)");  // kept for the process
  }
  p.scratch = scratch;
  p.scratch_words = words;
  return p;
}

}  // namespace perturb_plan

// Plans `kernel`'s perturbed launch. `shapes`: what it allows (the first is
// the unperturbed shape); `base_shared`: the dynamic shared memory it
// needs; `teams`: how many teams it runs (teams=one picks among them);
// `hot`: the structure's arrays in device memory, where the hammer warps
// go; `done`: a zeroed device counter of worker threads that left.
template <class Kernel>
PerturbedLaunch plan_perturbed_launch(Kernel kernel, const Perturbation& pert, const std::vector<LaunchShape>& shapes,
                                      size_t base_shared, uint32_t teams, const std::vector<cuda_backend::hot_region>& hot,
                                      uint32_t* done) {
  // Only the shapes the kernel can launch (its registers bound its block size).
  cudaFuncAttributes attr{};
  check(cudaFuncGetAttributes(&attr, kernel), "cudaFuncGetAttributes");
  std::vector<LaunchShape> fit;
  for (const LaunchShape& sh : shapes)
    if (int(sh.threads) <= attr.maxThreadsPerBlock) fit.push_back(sh);
  if (fit.empty()) throw std::invalid_argument("gpu: no launch shape fits the teams and the perturbing kernel's block limit");
  const std::vector<LaunchShape>& shapes_ok = fit;
  const PerturbRecipe& r = pert.recipe;
  const uint64_t seed = detail::mix64(pert.seed ^ detail::mix64(r.seed + 0x5EEDull));
  uint64_t draws = seed;
  auto draw = [&] { return draws = detail::mix64(draws); };

  PerturbedLaunch l;
  cuda_backend::perturb_params& p = l.params;
  const LaunchShape shape = r.shuffle ? shapes_ok[draw() % shapes_ok.size()] : shapes_ok[0];
  l.threads = shape.threads;
  p.worker_blocks = shape.worker_blocks;
  p.block_mul = 1;
  p.block_add = 0;
  if (r.shuffle && p.worker_blocks > 1) {
    p.block_add = static_cast<uint32_t>(draw() % p.worker_blocks);
    for (int tries = 0; tries < 64; ++tries) {
      const uint32_t m = 1 + static_cast<uint32_t>(draw() % (p.worker_blocks - 1));
      if (std::gcd(m, p.worker_blocks) == 1) {
        p.block_mul = m;
        break;
      }
    }
  }
  const uint32_t warps_a_block = std::max<uint32_t>(1, l.threads / 32);
  p.hammer_blocks = r.hammer ? (r.hammer + warps_a_block - 1) / warps_a_block : 0;
  l.blocks = p.hammer_blocks + p.worker_blocks;

  p.seed = seed;
  p.points = r.delays() ? r.points : 0;
  p.threshold = (uint64_t(r.p_ppm) << 32) / PerturbRecipe::kMillion;
  p.delay_ns = r.delay_ns;
  p.dist = r.dist == PerturbRecipe::Dist::Fixed     ? cuda_backend::perturb_dist::fixed
           : r.dist == PerturbRecipe::Dist::Uniform ? cuda_backend::perturb_dist::uniform
                                                    : cuda_backend::perturb_dist::exponential;
  p.wait = r.wait == PerturbRecipe::Wait::Sleep ? cuda_backend::perturb_wait::sleep : cuda_backend::perturb_wait::spin;
  p.split = r.split;
  p.team_num = r.team_num;
  p.team_den = r.team_den;
  p.one_team = r.one_team ? static_cast<uint32_t>(draw() % std::max<uint32_t>(teams, 1)) : ~0u;

  p.hammer = r.hammer_mode == PerturbRecipe::Hammer::Rmw    ? cuda_backend::hammer_mode::rmw
             : r.hammer_mode == PerturbRecipe::Hammer::Load ? cuda_backend::hammer_mode::load
                                                            : cuda_backend::hammer_mode::evict;
  p.regions = 0;
  for (const cuda_backend::hot_region& h : hot) {
    if (p.regions == cuda_backend::perturb_params::kMaxRegions || h.bytes < 4) continue;
    p.region[p.regions++] = {h.base, std::min<uint64_t>(h.bytes, uint64_t(r.hammer_lines()) * 128) / 4 * 4};
  }
  if (r.hammer && r.hammer_mode == PerturbRecipe::Hammer::Evict) perturb_plan::with_scratch(p);
  p.done = done;
  p.worker_threads = p.worker_blocks * l.threads;
  p.zero = 0;
  p.deadline_ns = uint64_t(30) * 1000000000;  // a bound; the workers' leaving ends the hammer long before

  l.shared_bytes = base_shared;
  if (r.occ) {
    int device = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
    // Ask for the largest shared-memory carveout, so the arithmetic below is what the SM does.
    check(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, 100), "carveout");
    const size_t per_block_max = prop.sharedMemPerBlockOptin - attr.sharedSizeBytes;
    const size_t share = prop.sharedMemPerMultiprocessor / r.occ;
    size_t want = share > prop.reservedSharedMemPerBlock + attr.sharedSizeBytes
                      ? share - prop.reservedSharedMemPerBlock - attr.sharedSizeBytes
                      : 0;
    want = std::min(std::max(want, base_shared), per_block_max);
    check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(per_block_max)), "shared memory");
    int n = 0;
    for (;;) {
      check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, int(l.threads), want), "occupancy");
      if (n <= int(r.occ) || want >= per_block_max) break;
      want = std::min(want + 1024, per_block_max);
    }
    l.shared_bytes = want;
    l.blocks_per_sm = n;
  }
  return l;
}

}  // namespace warpcheck::gpu
