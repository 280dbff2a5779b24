// The GPU's block team: every thread of a 1-D block (up to 1024 lanes).
// Collectives are __syncthreads and its counting forms; shfl goes through a
// shared-memory exchange. No ballot: a block is wider than one 32-bit mask.
#pragma once
#include "structures/core/cuda/team_common.cuh"

namespace warpcheck::cuda_backend {

class block_team : public team_common<block_team> {
 public:
  __device__ explicit block_team(const device_context& c) : team_common(c) {}

  __device__ __forceinline__ uint32_t lane() const { return threadIdx.x; }
  __device__ __forceinline__ uint32_t size() const { return blockDim.x; }
  __device__ __forceinline__ uint32_t team_id() const { return blockIdx.x; }

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

static_assert(core::Team<block_team>, "the GPU's block_team meets the team contract (structures/core/team.hpp)");

}  // namespace warpcheck::cuda_backend
