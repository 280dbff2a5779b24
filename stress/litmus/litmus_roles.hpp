// The litmus tests' programs, once: role `role` of an instance of `shape`
// on words x and y (zero at the start), its registers r. The simulator
// runs them on its teams (stress/litmus/litmus.cpp), the GPU on a lane of a warp
// (stress/gpu/litmus_gpu.cu); a Team needs load, store and fence.
// "fenced": release on the publishing store and acquire on the reading
// load (MP, MP-wide, WRC), fence.sc between a role's two accesses (SB, IRIW),
// fence.acq_rel (LB). Coherence shapes are never fenced. The guard shapes
// (the slab hash multimap's delete guard, issue 32) always fence the
// writer; "fenced" orders the reader: a fence.acq_rel (guard-fence) or an
// acquire load (guard-acquire).
#pragma once
#include <cstdint>

#include "structures/core/config.hpp"
#include "structures/core/memory_order.hpp"

namespace warpcheck {

enum class LitmusShape : uint8_t { mp, mp_wide, sb, lb, wrc, iriw, corr, coww, guard_fence, guard_acquire };

template <class Team, class W>
WC_HD void run_litmus_role(Team& team, LitmusShape shape, bool fenced, core::scope s, uint32_t role, W* x, W* y, W* r) {
  using core::order;
  const order rel = fenced ? order::release : order::relaxed, acq = fenced ? order::acquire : order::relaxed;
  switch (shape) {
    case LitmusShape::mp:  // T0: x = 1; y = 1 (release). T1: r0 = y (acquire); r1 = x.
      if (role == 0) {
        team.store(x, W(1), order::relaxed, s);
        team.store(y, W(1), rel, s);
      } else {
        r[0] = team.load(y, acq, s);
        r[1] = team.load(x, order::relaxed, s);
      }
      break;
    case LitmusShape::mp_wide: {  // MP with a 32-bit flag y that T1 first reads as part of its 64-bit word
      // T0: x = 1; y = 1 (release). T1: r2 = y's 8 bytes; r0 = y (acquire); r1 = x.
      // The wide read must not cost the acquire its synchronization (the
      // slab hash reads its guard word both ways: issue 29). y is 8-byte aligned.
      uint32_t* flag = reinterpret_cast<uint32_t*>(y);
      if (role == 0) {
        team.store(x, W(1), order::relaxed, s);
        team.store(flag, uint32_t(1), rel, s);
      } else {
        r[2] = W(team.load(reinterpret_cast<const uint64_t*>(y), order::relaxed, s));
        r[0] = team.load(flag, acq, s);
        r[1] = team.load(x, order::relaxed, s);
      }
      break;
    }
    case LitmusShape::sb:  // Ti: own = 1; fence.sc; r0 = other.
      team.store(role == 0 ? x : y, W(1), order::relaxed, s);
      if (fenced) team.fence(order::seq_cst, s);
      r[0] = team.load(role == 0 ? y : x, order::relaxed, s);
      break;
    case LitmusShape::lb:  // Ti: r0 = own; fence; other = 1.
      r[0] = team.load(role == 0 ? x : y, order::relaxed, s);
      if (fenced) team.fence(order::acq_rel, s);
      team.store(role == 0 ? y : x, W(1), order::relaxed, s);
      break;
    case LitmusShape::wrc:  // T0: x = 1. T1: r0 = x; y = 1 (release). T2: r0 = y (acquire); r1 = x.
      if (role == 0) {
        team.store(x, W(1), order::relaxed, s);
      } else if (role == 1) {
        r[0] = team.load(x, order::relaxed, s);
        team.store(y, W(1), rel, s);
      } else {
        r[0] = team.load(y, acq, s);
        r[1] = team.load(x, order::relaxed, s);
      }
      break;
    case LitmusShape::iriw:  // T0: x = 1. T1: y = 1. T2: r0 = x; fence.sc; r1 = y. T3: r0 = y; fence.sc; r1 = x.
      if (role < 2) {
        team.store(role == 0 ? x : y, W(1), order::relaxed, s);
      } else {
        r[0] = team.load(role == 2 ? x : y, order::relaxed, s);
        if (fenced) team.fence(order::seq_cst, s);
        r[1] = team.load(role == 2 ? y : x, order::relaxed, s);
      }
      break;
    case LitmusShape::guard_fence:  // MP with a fence.acq_rel on each side: a delete and a guarded slab read
    case LitmusShape::guard_acquire: {
      // T0 (a delete): x = 1 (the guard's enter); fence.acq_rel; y = 1 (the removal).
      // T1 (a search that read the removal): r0 = y; fence.acq_rel (guard-fence), or
      // r0 = y (acquire) (guard-acquire); r1 = x (the guard's second load).
      // Fenced, PTX forbids T1: y=1, x=0 (the reader would take a torn read for a snapshot).
      if (role == 0) {
        team.store(x, W(1), order::relaxed, s);
        team.fence(order::acq_rel, s);
        team.store(y, W(1), order::relaxed, s);
      } else {
        const bool by_acquire = fenced && shape == LitmusShape::guard_acquire;
        r[0] = team.load(y, by_acquire ? order::acquire : order::relaxed, s);
        if (fenced && shape == LitmusShape::guard_fence) team.fence(order::acq_rel, s);
        r[1] = team.load(x, order::relaxed, s);
      }
      break;
    }
    case LitmusShape::corr:  // T0: x = 1. T1: r0 = x; r1 = x.
      if (role == 0) {
        team.store(x, W(1), order::relaxed, s);
      } else {
        r[0] = team.load(x, order::relaxed, s);
        r[1] = team.load(x, order::relaxed, s);
      }
      break;
    case LitmusShape::coww:  // T0: x = 1; x = 2. T1: r0 = x; r1 = x.
      if (role == 0) {
        team.store(x, W(1), order::relaxed, s);
        team.store(x, W(2), order::relaxed, s);
      } else {
        r[0] = team.load(x, order::relaxed, s);
        r[1] = team.load(x, order::relaxed, s);
      }
      break;
  }
}

}  // namespace warpcheck
