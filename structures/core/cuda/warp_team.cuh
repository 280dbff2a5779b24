// The GPU's warp team: 32 lanes of a warp, collectives over the full mask.
// basic_warp_team<true> perturbs (team_common.cuh) and numbers its teams
// through the launch shuffle; warp_team is the team every other kernel uses.
#pragma once
#include "structures/core/cuda/team_common.cuh"

namespace warpcheck::cuda_backend {

template <bool Perturb>
class basic_warp_team : public team_common<basic_warp_team<Perturb>, Perturb> {
  using base = team_common<basic_warp_team<Perturb>, Perturb>;

 public:
  static constexpr unsigned kFull = 0xffffffffu;
  // Teams are numbered across the grid (1-D blocks of whole warps).
  __device__ explicit basic_warp_team(const device_context& c) : base(c), lane_(threadIdx.x & 31), team_(team_of(c)) {
    this->init_perturbation(team_);
  }

  __device__ __forceinline__ uint32_t lane() const { return lane_; }
  __device__ __forceinline__ uint32_t size() const { return 32; }
  __device__ __forceinline__ uint32_t team_id() const { return team_; }

  __device__ __forceinline__ uint32_t ballot(bool p) { return __ballot_sync(kFull, p); }
  __device__ __forceinline__ bool any(bool p) { return __any_sync(kFull, p); }
  __device__ __forceinline__ bool all(bool p) { return __all_sync(kFull, p); }
  __device__ __forceinline__ uint32_t count(bool p) { return __popc(__ballot_sync(kFull, p)); }
  __device__ __forceinline__ void sync() { __syncwarp(kFull); }
  template <class V>
  __device__ __forceinline__ V shfl(V v, uint32_t src) {
    return move_bits(
        v, [&](uint32_t b) { return static_cast<uint32_t>(__shfl_sync(kFull, b, src)); },
        [&](unsigned long long b) { return __shfl_sync(kFull, b, src); });
  }

 private:
  __device__ static uint32_t team_of(const device_context& c) {
    if constexpr (Perturb) return (perturb_logical_block(c.perturb) * blockDim.x + threadIdx.x) >> 5;
    else return (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  }
  uint32_t lane_, team_;
};

using warp_team = basic_warp_team<false>;

static_assert(core::WarpTeam<warp_team>, "the GPU's warp_team meets the team contract (structures/core/team.hpp)");
static_assert(core::WarpTeam<basic_warp_team<true>>, "the perturbing warp team meets the team contract too");

}  // namespace warpcheck::cuda_backend
