// The GPU's warp team: 32 lanes of a warp, collectives over the full mask.
#pragma once
#include "structures/core/cuda/team_common.cuh"

namespace warpcheck::cuda_backend {

class warp_team : public team_common<warp_team> {
 public:
  static constexpr unsigned kFull = 0xffffffffu;
  // Teams are numbered across the grid (1-D blocks of whole warps).
  __device__ explicit warp_team(const device_context& c)
      : team_common(c), lane_(threadIdx.x & 31), team_((blockIdx.x * blockDim.x + threadIdx.x) >> 5) {}

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
  uint32_t lane_, team_;
};

static_assert(core::WarpTeam<warp_team>, "the GPU's warp_team meets the team contract (structures/core/team.hpp)");

}  // namespace warpcheck::cuda_backend
