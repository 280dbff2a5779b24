// The GPU's block team: every thread of a 1-D block (up to 1024 lanes).
// Collectives are __syncthreads and its counting forms; shfl goes through a
// shared-memory exchange. No ballot: a block is wider than one 32-bit mask.
// basic_block_team<true> perturbs (team_common.cuh) and takes its team
// number from the launch shuffle; block_team is the team every other kernel uses.
#pragma once
#include "structures/core/cuda/team_common.cuh"

namespace warpcheck::cuda_backend {

template <bool Perturb>
class basic_block_team : public team_common<basic_block_team<Perturb>, Perturb> {
  using base = team_common<basic_block_team<Perturb>, Perturb>;

 public:
  __device__ explicit basic_block_team(const device_context& c) : base(c) {
    if constexpr (Perturb) this->init_perturbation(perturb_logical_block(c.perturb));
  }

  __device__ __forceinline__ uint32_t lane() const { return threadIdx.x; }
  __device__ __forceinline__ uint32_t size() const { return blockDim.x; }
  __device__ __forceinline__ uint32_t team_id() const {
    if constexpr (Perturb) return this->perturb_.team;
    else return blockIdx.x;
  }

  __device__ __forceinline__ bool any(bool p) { return __syncthreads_or(p) != 0; }
  __device__ __forceinline__ bool all(bool p) { return __syncthreads_and(p) != 0; }
  __device__ __forceinline__ uint32_t count(bool p) { return __syncthreads_count(p); }
  __device__ __forceinline__ void sync() { __syncthreads(); }
  template <class V>
  __device__ __forceinline__ V shfl(V v, uint32_t src) {
    __shared__ unsigned long long exchange[1024];
    return move_bits(
        v,
        [&](uint32_t b) {
          exchange[threadIdx.x] = b;
          __syncthreads();
          const uint32_t out = static_cast<uint32_t>(exchange[src % blockDim.x]);
          __syncthreads();
          return out;
        },
        [&](unsigned long long b) {
          exchange[threadIdx.x] = b;
          __syncthreads();
          const unsigned long long out = exchange[src % blockDim.x];
          __syncthreads();
          return out;
        });
  }
};

using block_team = basic_block_team<false>;

static_assert(core::Team<block_team>, "the GPU's block_team meets the team contract (structures/core/team.hpp)");
static_assert(core::Team<basic_block_team<true>>, "the perturbing block team meets the team contract too");

}  // namespace warpcheck::cuda_backend
