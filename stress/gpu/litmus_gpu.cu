#include <algorithm>
#include <stdexcept>
#include <vector>

#include "stress/gpu/device_buffer.cuh"
#include "stress/gpu/litmus_gpu.hpp"
#include "stress/gpu/litmus_host_role.hpp"
#include "stress/litmus/litmus_roles.hpp"
#include "structures/core/cuda/memory.cuh"

namespace warpcheck::gpu {

namespace {

constexpr uint32_t kInstancesPerBlock = 4;
constexpr uint32_t kWordsApart = 32;  // x and y of an instance: 128 bytes apart (lines of their own)
constexpr uint32_t kStressWords = 1u << 16;
constexpr uint64_t kBarrierSpins = 1u << 20;

struct Program {
  LitmusShape shape;
  bool fenced;
  core::scope scope;
  bool same_block;
  uint32_t teams, instances;
  uint64_t seed;
  bool stress;
  uint32_t jitter;
  uint64_t apart_words;  // y's distance from x
};

using core::order;

// The role's one lane, straight to memory (stress/litmus/litmus_roles.hpp's Team).
struct lane_memory {
  template <class W>
  __device__ W load(const W* p, order o, core::scope s) { return cuda_backend::load(p, o, s); }
  template <class W>
  __device__ void store(W* p, W v, order o, core::scope s) { cuda_backend::store(p, v, o, s); }
  __device__ void fence(order o, core::scope s) { cuda_backend::fence(o, s); }
};

// Where an instance's x is, for a launch: a permutation drawn from the seed
// and the launch (instances is a power of two, the factor odd); next lines
// (x at 2 at lines, y after it), or x at line `at` of its region and y
// apart_words past it.
__host__ __device__ uint32_t* instance_x(const Program& p, uint32_t* words, uint32_t instance, uint32_t launch) {
  const uint32_t factor = uint32_t(p.seed * 2654435761u + launch * 40503u) | 1u;
  const uint32_t at = (instance * factor + launch) & (p.instances - 1);
  return words + size_t(at) * (p.apart_words == kWordsApart ? 2 : 1) * kWordsApart;
}

// Memory stress beside the roles (lanes 1-31 of each warp): loads and
// stores over a buffer.
__device__ void hammer(uint32_t* stress_buffer, uint32_t launch) {
  uint32_t h = (blockIdx.x * 1024 + threadIdx.x) * 2654435761u + launch;
  for (int i = 0; i < 64; ++i) {
    h = h * 1664525u + 1013904223u;
    uint32_t* w = stress_buffer + (h >> 8) % kStressWords;
    if (h & 1) cuda_backend::store(w, h, order::relaxed, core::scope::gpu);
    else (void)cuda_backend::load(w, order::relaxed, core::scope::gpu);
  }
}

// One warp a role. In one block: warp w of block b is role w % teams of
// instance b * kInstancesPerBlock + w / teams. In separate blocks: block b
// holds role b % teams of instances (b / teams) * kInstancesPerBlock + w.
__global__ void litmus_kernel(Program p, uint32_t* words, uint32_t* regs, uint32_t* arrived, uint32_t* timeouts,
                              uint32_t* stress_buffer, uint32_t launch) {
  const uint32_t warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const uint32_t role = p.same_block ? warp % p.teams : blockIdx.x % p.teams;
  const uint32_t instance = p.same_block ? blockIdx.x * kInstancesPerBlock + warp / p.teams
                                         : (blockIdx.x / p.teams) * kInstancesPerBlock + warp;
  if (instance >= p.instances) return;
  if (lane == 0) {
    uint32_t* x = instance_x(p, words, instance, launch);
    uint32_t* y = x + p.apart_words;
    // The instance's roles meet first (bounded: a role whose partner is
    // not resident goes on alone, and is counted).
    atomicAdd(&arrived[instance], 1u);
    uint64_t spins = 0;
    while (cuda_backend::load(&arrived[instance], order::acquire, core::scope::gpu) < p.teams && ++spins < kBarrierSpins) {
    }
    if (spins >= kBarrierSpins) atomicAdd(timeouts, 1u);
    if (p.jitter) {  // a seeded offset between the roles, so their windows meet
      const uint32_t wait = ((instance * 2654435761u) ^ (role * 40503u + launch * 97u) ^ uint32_t(p.seed)) * 2246822519u % p.jitter;
      const long long until = clock64() + wait;
      while (clock64() < until) {
      }
    }
    lane_memory lane;
    run_litmus_role(lane, p.shape, p.fenced, p.scope, role, x, y, regs + size_t(instance) * 16 + role * 4);
  } else if (p.stress) {
    hammer(stress_buffer, launch);
  }
}

// GPU-to-host tests: the last role is a CPU thread's. Every word is in
// pinned, mapped host memory; an instance's roles meet through flags there
// (launch + 1 when a role arrived: no atomics across the bus), bounded on
// both sides.
struct HostMeeting {
  uint32_t* gpu_arrived;   // instances x gpu roles
  uint32_t* host_arrived;  // instances
  uint32_t* timeouts;
};

// The GPU roles of a GPU-to-host test: block b holds role b % gpu_roles of
// instances (b / gpu_roles) * kInstancesPerBlock + w.
__global__ void litmus_host_kernel(Program p, uint32_t gpu_roles, uint32_t* words, uint32_t* regs, HostMeeting m,
                                   uint32_t* stress_buffer, uint32_t launch) {
  const uint32_t warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const uint32_t role = blockIdx.x % gpu_roles;
  const uint32_t instance = (blockIdx.x / gpu_roles) * kInstancesPerBlock + warp;
  if (instance >= p.instances) return;
  if (lane == 0) {
    uint32_t* x = instance_x(p, words, instance, launch);
    cuda_backend::store(&m.gpu_arrived[instance * gpu_roles + role], launch + 1, order::relaxed, core::scope::system);
    uint64_t spins = 0;
    auto met = [&] {
      if (cuda_backend::load(&m.host_arrived[instance], order::relaxed, core::scope::system) != launch + 1) return false;
      for (uint32_t r = 0; r < gpu_roles; ++r)
        if (cuda_backend::load(&m.gpu_arrived[instance * gpu_roles + r], order::relaxed, core::scope::system) != launch + 1) return false;
      return true;
    };
    while (!met() && ++spins < kBarrierSpins) {
    }
    if (spins >= kBarrierSpins) atomicAdd(m.timeouts, 1u);
    lane_memory me;
    run_litmus_role(me, p.shape, p.fenced, p.scope, role, x, x + p.apart_words, regs + size_t(instance) * 16 + role * 4);
  } else if (p.stress) {
    hammer(stress_buffer, launch);
  }
}

// Pinned, mapped host memory, zeroed; its device address beside it.
template <class T>
struct MappedBuffer {
  T* host = nullptr;
  T* device = nullptr;
  size_t n = 0;
  explicit MappedBuffer(size_t count) : n(count) {
    check(cudaHostAlloc(reinterpret_cast<void**>(&host), n * sizeof(T), cudaHostAllocMapped), "litmus: mapped host memory");
    check(cudaHostGetDevicePointer(reinterpret_cast<void**>(&device), host, 0), "litmus: its device address");
    zero();
  }
  ~MappedBuffer() { cudaFreeHost(host); }
  MappedBuffer(const MappedBuffer&) = delete;
  MappedBuffer& operator=(const MappedBuffer&) = delete;
  void zero() { std::fill(host, host + n, T(0)); }
};

LitmusGpuCount run_litmus_gpu_host(const LitmusTest& test, const Program& p, const LitmusGpuSettings& s, size_t word_count) {
  const uint32_t gpu_roles = test.teams - 1, host_role = test.teams - 1;
  MappedBuffer<uint32_t> words(word_count), regs(size_t(p.instances) * 16), gpu_arrived(size_t(p.instances) * gpu_roles),
      host_arrived(p.instances);
  DeviceBuffer<uint32_t> stress_buffer(kStressWords), timeouts(1);  // the GPU's count: no atomics across the bus
  const uint32_t blocks = p.instances / kInstancesPerBlock * gpu_roles, threads = 32 * kInstancesPerBlock;
  uint64_t host_timeouts = 0;
  std::vector<uint32_t*> x_of(p.instances);
  LitmusGpuCount c;
  std::vector<uint64_t> wide(16);
  for (uint32_t launch = 0; launch < s.launches; ++launch) {
    words.zero();
    regs.zero();
    litmus_host_kernel<<<blocks, threads>>>(p, gpu_roles, words.device, regs.device,
                                            HostMeeting{gpu_arrived.device, host_arrived.device, timeouts.p},
                                            stress_buffer.p, launch);
    check(cudaGetLastError(), "litmus launch");
    for (uint32_t i = 0; i < p.instances; ++i) x_of[i] = instance_x(p, words.host, i, launch);
    host_timeouts += run_host_roles({.shape = p.shape, .fenced = p.fenced, .scope = p.scope, .role = host_role,
                                     .gpu_roles = gpu_roles, .instances = p.instances, .launch = launch,
                                     .spin_bound = kBarrierSpins, .x = x_of.data(), .apart_words = p.apart_words,
                                     .regs = regs.host, .gpu_arrived = gpu_arrived.host, .host_arrived = host_arrived.host});
    check(cudaDeviceSynchronize(), "litmus kernel");
    for (uint32_t i = 0; i < p.instances; ++i) {
      std::copy(regs.host + size_t(i) * 16, regs.host + size_t(i) * 16 + 16, wide.begin());
      ++c.runs;
      c.weak += test.weak(wide.data());
      c.interleaved += test.interleaved(wide.data());
    }
  }
  uint32_t gpu_timeouts = 0;
  timeouts.to_host(&gpu_timeouts);
  c.barrier_timeouts = gpu_timeouts + host_timeouts;
  return c;
}

}  // namespace

LitmusGpuCount run_litmus_gpu(const LitmusTest& test, const LitmusGpuSettings& s) {
  uint32_t instances = 1;
  while (instances * 2 <= std::max<uint32_t>(s.instances, 1)) instances *= 2;  // a power of two: the permutation
  instances = std::max(instances, kInstancesPerBlock);
  const uint64_t apart_words = s.apart_bytes / 4;
  if (s.apart_bytes != 4 * kWordsApart && (s.apart_bytes % (4 * kWordsApart) || apart_words < uint64_t(instances) * kWordsApart))
    throw std::invalid_argument("litmus: x and y are 128 bytes apart, or at least instances x 128 bytes, a multiple of 128");
  Program p{test.shape, test.fenced, test.scope, test.same_block, test.teams, instances, s.seed, s.stress, s.jitter, apart_words};
  const size_t word_count = apart_words == kWordsApart ? size_t(instances) * 2 * kWordsApart : size_t(instances) * kWordsApart + apart_words;
  if (test.host_last) return run_litmus_gpu_host(test, p, s, word_count);
  DeviceBuffer<uint32_t> words(word_count), regs(size_t(instances) * 16), arrived(instances),
      timeouts(1), stress_buffer(kStressWords);
  const uint32_t groups = instances / kInstancesPerBlock;
  const uint32_t blocks = test.same_block ? groups : groups * test.teams;
  const uint32_t threads = 32 * (test.same_block ? kInstancesPerBlock * test.teams : kInstancesPerBlock);
  LitmusGpuCount c;
  std::vector<uint32_t> r;
  std::vector<uint64_t> wide(16);
  for (uint32_t launch = 0; launch < s.launches; ++launch) {
    words.zero();
    regs.zero();
    arrived.zero();
    litmus_kernel<<<blocks, threads>>>(p, words.p, regs.p, arrived.p, timeouts.p, stress_buffer.p, launch);
    check(cudaGetLastError(), "litmus launch");
    check(cudaDeviceSynchronize(), "litmus kernel");
    regs.to_host(r);
    for (uint32_t i = 0; i < instances; ++i) {
      std::copy(r.begin() + size_t(i) * 16, r.begin() + size_t(i) * 16 + 16, wide.begin());
      ++c.runs;
      c.weak += test.weak(wide.data());
      c.interleaved += test.interleaved(wide.data());
    }
  }
  uint32_t t = 0;
  timeouts.to_host(&t);
  c.barrier_timeouts = t;
  return c;
}

}  // namespace warpcheck::gpu
