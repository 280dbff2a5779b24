// What the GPU's warp and block teams share: memory (memory.cuh), bounded
// spins that report to device_faults, free annotations, the recorder clock.
// Perturb (a template argument, so a team that does not perturb is the same
// code as before): seeded delays at the scheduling points the simulator
// uses (perturbation.cuh; docs/gpu-perturbation.md).
#pragma once
#include <cstdint>
#include <cstring>

#include "structures/core/cuda/device_faults.hpp"
#include "structures/core/cuda/memory.cuh"
#include "structures/core/cuda/perturbation.cuh"
#include "structures/core/recorder/stamp.hpp"
#include "structures/core/team.hpp"

namespace warpcheck::cuda_backend {

// A perturbing team's state (perturbation.cuh); nothing for the others.
template <bool Perturb>
struct perturb_state_of {
  __device__ void init(const perturb_params&, uint32_t) {}
};
template <>
struct perturb_state_of<true> : perturb_team_state {
  __device__ void init(const perturb_params& p, uint32_t t) {
    team = t;
    selected = perturb_team_selected(p, t);
  }
};

template <class Derived, bool Perturb = false>
class team_common {
 public:
  static constexpr bool kPerturb = Perturb;
  __device__ explicit team_common(const device_context& c) : ctx_(c) {}

  template <class W> __device__ __forceinline__ W load(const W* p, core::order o, core::scope s) {
    if constexpr (Perturb) return perturbed_load(p, o, s);
    else return cuda_backend::load(p, o, s);
  }
  template <class W> __device__ __forceinline__ void store(W* p, W v, core::order o, core::scope s) {
    point(kPointStore);
    cuda_backend::store(p, v, o, s);
  }
  template <class W> __device__ __forceinline__ W cas(W* p, W e, W d, core::order o, core::scope s) {
    point(kPointRmw);
    return cuda_backend::cas(p, e, d, o, s);
  }
  template <class W> __device__ __forceinline__ W exchange(W* p, W v, core::order o, core::scope s) {
    point(kPointRmw);
    return cuda_backend::exchange(p, v, o, s);
  }
  template <class W> __device__ __forceinline__ W fetch_add(W* p, W v, core::order o, core::scope s) {
    point(kPointRmw);
    return cuda_backend::fetch_add(p, v, o, s);
  }
  template <class W> __device__ __forceinline__ W fetch_and(W* p, W v, core::order o, core::scope s) {
    point(kPointRmw);
    return cuda_backend::fetch_and(p, v, o, s);
  }
  template <class W> __device__ __forceinline__ W fetch_or(W* p, W v, core::order o, core::scope s) {
    point(kPointRmw);
    return cuda_backend::fetch_or(p, v, o, s);
  }
  template <class W> __device__ __forceinline__ W fetch_min(W* p, W v, core::order o, core::scope s) {
    point(kPointRmw);
    return cuda_backend::fetch_min(p, v, o, s);
  }
  __device__ __forceinline__ void fence(core::order o, core::scope s) {
    point(kPointFence);
    cuda_backend::fence(o, s);
  }

  // Past the bound: record the fault (first one wins the details) and give up.
  // Once any team has faulted, the run has failed: every spinner gives up
  // within 64 iterations (the lanes that spin together decide together), so
  // the kernel ends instead of each team waiting out its bound.
  __device__ __forceinline__ bool spin(const void* waiting_on, uint64_t iteration) {
    if (iteration <= ctx_.spin_bound) {
      if ((iteration & 63) == 0 &&
          __any_sync(__activemask(), cuda_backend::load(&ctx_.faults->count, core::order::relaxed, core::scope::gpu) != 0)) {
        atomicAdd(&ctx_.faults->gave_up, 1u);
        return false;
      }
      __nanosleep(cuda_backend::spin_backoff_ns(iteration, ctx_.backoff_cap_ns));  // back off: the holder needs the memory system
      point(kPointSpin);
      return true;
    }
    record_fault(fault_kind::spin_bound, waiting_on, iteration);
    return false;
  }
  __device__ void fail(const char*, const void* at) { record_fault(fault_kind::structure, at, 0); }

  // Annotations cost nothing here: the lock word itself holds its owner.
  // Perturbed: the holder keeps the lock a while longer.
  __device__ __forceinline__ void lock_acquired(const void*) { point(kPointLock); }
  __device__ __forceinline__ void lock_released(const void*) { point(kPointLock); }
  __device__ __forceinline__ void shadow_pool(const void*, size_t, size_t, const char*, core::unit_state = core::unit_state::uninitialized) {}
  __device__ __forceinline__ void shadow_mark(const void*, core::unit_state) {}
  static constexpr bool kShadow = false;
  // A warp's loads of one chunk or slab coalesce in hardware: one load a lane.
  template <class W> __device__ __forceinline__ W load_coalesced(const W* p, core::order o, core::scope s) {
    if constexpr (Perturb) return perturbed_load(p, o, s);
    else return p ? cuda_backend::load(p, o, s) : W{};
  }
  __device__ __forceinline__ uint64_t last_load_step() const { return 0; }
  __device__ __forceinline__ void retire(const void*) {}
  __device__ __forceinline__ void act_on(const void*, uint64_t, const char*) {}
  __device__ __forceinline__ void note_operation(OpKind, int64_t) {}

  __device__ __forceinline__ uint64_t now(core::clock_kind clock, uint64_t* ticket) const {
    return core::recorder_now(clock, ticket);
  }

 protected:
  // A scheduling point: with Perturb, maybe a delay (the team's lanes that
  // reach it together decide together); otherwise nothing.
  __device__ __forceinline__ void point(perturb_point at) {
    if constexpr (Perturb) {
      const perturb_draw d = perturb_decide(ctx_.perturb, perturb_, at);
      if (d.fire) perturb_delay(ctx_.perturb, d.h);
    }
  }
  // A load (null: none, for load_coalesced) that fires delays its team
  // after the load, or with `split`, tears it: the lanes of a seed-chosen
  // subset load after the delay, the others before it (the simulator's
  // --delay-loads: a warp's read of a slab or chunk is not one instant).
  template <class W>
  __device__ __forceinline__ W perturbed_load(const W* p, core::order o, core::scope s) {
    const perturb_draw d = perturb_decide(ctx_.perturb, perturb_, kPointLoad);
    if (!d.fire) return p ? cuda_backend::load(p, o, s) : W{};
    W v{};
    if (!ctx_.perturb.split) {
      if (p) v = cuda_backend::load(p, o, s);
      perturb_delay(ctx_.perturb, d.h);
      return v;
    }
    const bool late = (d.lanes_late() >> (threadIdx.x & 31)) & 1;
    if (!late && p) v = cuda_backend::load(p, o, s);
    __syncwarp(d.mask);  // the early lanes' loads are done (a barrier the compiler keeps the loads on their sides of)
    if (late) {
      perturb_delay(ctx_.perturb, d.h);
      if (p) v = cuda_backend::load(p, o, s);
    }
    __syncwarp(d.mask);
    return v;
  }
  // The derived team calls it once it knows its number.
  __device__ __forceinline__ void init_perturbation(uint32_t team) { perturb_.init(ctx_.perturb, team); }
  __device__ __forceinline__ const Derived& self() const { return *static_cast<const Derived*>(this); }

  __device__ void record_fault(fault_kind k, const void* at, uint64_t iterations) {
    device_faults* f = ctx_.faults;
    if (atomicAdd(&f->count, 1u) == 0) {
      f->kind = static_cast<uint32_t>(k);
      f->team = static_cast<const Derived*>(this)->team_id();
      f->lane = static_cast<const Derived*>(this)->lane();
      f->address = reinterpret_cast<uint64_t>(at);
      f->iterations = iterations;
    }
  }
  device_context ctx_;
  perturb_state_of<Perturb> perturb_;  // a perturbing team's number, whether it takes part, points reached; empty otherwise
};

// Moves any trivially copyable value of at most 8 bytes through 32/64-bit words.
template <class V, class Move32, class Move64>
__device__ __forceinline__ V move_bits(V v, Move32 m32, Move64 m64) {
  static_assert(sizeof(V) <= 8, "shfl moves words of at most 64 bits");
  if constexpr (sizeof(V) <= 4) {
    uint32_t b = 0;
    memcpy(&b, &v, sizeof(V));
    b = m32(b);
    memcpy(&v, &b, sizeof(V));
  } else {
    unsigned long long b = 0;
    memcpy(&b, &v, sizeof(V));
    b = m64(b);
    memcpy(&v, &b, sizeof(V));
  }
  return v;
}

}  // namespace warpcheck::cuda_backend
