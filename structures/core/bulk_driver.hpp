// Warp-cooperative work sharing over operations held in registers, as the
// public code of Ashkiani et al.'s GPU hash table does it: each lane loads its K operations from
// struct-of-arrays input (4-byte keys and values, 1-byte kinds, coalesced)
// before the work starts and prepares them itself (the structure's
// prepare(): the bucket hashed by every lane at once); the team then serves
// them lowest lane first through the structure's serve(), which broadcasts
// from the owner only what the operation needs. Against run_team_ops
// (warp_driver.hpp): no 24-byte workload_op read by the owner inside the
// loop (a dependent global load an operation), no three broadcasts of the
// whole operation, no hashing by all 32 lanes of each operation in turn.
//
// A structure that serves whole rounds itself (RoundServingStructure: the
// slab hash, several operations a warp step in tiles of 8 or 16 lanes) is
// handed each round at once when operations are not recorded one by one.
//
// Lane l's r-th operation (r < K) is input index first + 32 r + l; indices
// at or past the input's count are none. Results leave one round (one
// operation a lane) at a time, coalesced: `out` gets the value returned
// (kNoValue when there is none: absent, or an operation with no result),
// and recording is either history_log's records (one an operation, begun
// and ended by the owner lane around it, as run_team_ops records) or
// batch_log's (one call and one ret stamp for the warp's whole batch and
// one result word an operation: see recorder/batch_log.hpp for why that is
// sound).
#pragma once
#include <concepts>
#include <cstdint>

#include "structures/core/recorder/batch_log.hpp"
#include "structures/core/recorder/history_log.hpp"
#include "structures/core/workload_op.hpp"

namespace warpcheck::core {

// Operation i is (kinds ? kinds[i] : kind, keys[i], values ? values[i] : 0).
struct bulk_input {
  const uint32_t* keys = nullptr;
  const uint32_t* values = nullptr;
  const uint8_t* kinds = nullptr;
  OpKind kind = OpKind::Find;
  uint64_t count = 0;
};

inline constexpr uint32_t kNoValue = 0xFFFFFFFFu;  // that public code's SEARCH_NOT_FOUND

// A structure with 32-bit keys and values whose lanes prepare their own
// operations: every lane calls serve() with its own lane_op and the same
// src, and the team serves lane src's.
template <class S, class T>
concept BulkWarpStructure =
    WarpTeam<T> && requires(const S s, T& t, const typename S::lane_op& op, typename S::lane_state& state, uint32_t src) {
      { s.prepare(OpKind::Find, uint32_t{}, uint32_t{}) } -> std::same_as<typename S::lane_op>;
      { s.serve(t, op, src, state) } -> std::same_as<op_result>;
    };

// A structure that serves a whole round itself: every lane calls with its
// own operation (pending: it has one this round) and gets its own result,
// the team serving them in an order and grouping of its choosing (the slab
// hash: one a tile of 8 or 16 lanes at a time). Used when operations are not
// recorded one by one (history_log's begin and end bracket one operation
// at a time, by its owner).
template <class S, class T>
concept RoundServingStructure =
    BulkWarpStructure<S, T> && requires(const S s, T& t, const typename S::lane_op& op, typename S::lane_state& state, bool pending) {
      { s.serve_round(t, op, pending, state) } -> std::same_as<op_result>;
    };

// The launch's input arrays are not written while it runs (the caller's,
// filled before the launch): on the GPU they are read through the
// read-only data path (__ldg, LDG.CONSTANT).
template <class T>
WC_HD WC_FORCE_INLINE T read_input(const T* p) {
#if defined(__CUDA_ARCH__)
  return __ldg(p);
#else
  return *p;
#endif
}

// Returns false when an operation gave up or failed (the back-end has the
// fault): the rest are not run; what was not finished stays pending.
template <uint32_t K, class Team, class Structure>
  requires BulkWarpStructure<Structure, Team> && (K >= 1 && K <= 32)
WC_HD bool run_team_bulk(Team& t, const Structure& s, const bulk_input& in, uint64_t first, uint32_t* out,
                         const history_log* log, const batch_log* batch) {
  typename Structure::lane_state state{};
  typename Structure::lane_op ops[K];
  uint32_t have = 0;  // bit r: this lane has an r-th operation
  const uint32_t lane = t.lane(), team = t.team_id();
  for (uint32_t r = 0; r < K; ++r) {
    const uint64_t i = first + 32 * r + lane;
    if (i >= in.count) continue;
    ops[r] = s.prepare(in.kinds ? static_cast<OpKind>(read_input(in.kinds + i)) : in.kind, read_input(in.keys + i),
                       in.values ? read_input(in.values + i) : 0u);
    have |= 1u << r;
  }
  if (batch) {
    if (lane == 0) {
      batch->stamps[2 * size_t(team)] = t.now(batch->clock, batch->ticket);
      t.fence(order::seq_cst, scope::gpu);  // the call stamp is stored before any access of the batch
    }
    t.sync();
  }
  // Round r serves ops[0] of every lane, then the queue moves up one: the
  // operation served is always a register, never an indexed array.
  // Bit 0 of `have` is this round's operation while it waits; the index is
  // recomputed where it is needed, not held across serve() (fewer live
  // registers there: no spill under the 32-register bound).
#if defined(__CUDA_ARCH__)
#pragma unroll 1
#endif
  for (uint32_t r = 0; r < K; ++r) {
    ResultKind kind = ResultKind::None;
    uint32_t value = 0;
    bool served = false;  // the structure served the round itself
    if constexpr (RoundServingStructure<Structure, Team>) {
      if (!log) {
        const op_result res = s.serve_round(t, ops[0], (have & 1u) != 0, state);
        if (t.any(res.status != op_status::done)) return false;
        kind = res.kind;
        value = static_cast<uint32_t>(res.value);
        have &= ~1u;
        served = true;
      }
    }
    while (!served) {
      const uint32_t waiting = t.ballot(have & 1u);
      if (!waiting) break;
      const uint32_t src = static_cast<uint32_t>(lowest_lane(waiting));
      uint32_t slot = history_log::kNoSlot;
      if (log && lane == src) {
        const uint64_t i = first + 32 * r + lane;
        const OpKind kind = in.kinds ? static_cast<OpKind>(in.kinds[i]) : in.kind;
        slot = log->begin(t, team, kind, in.keys[i], in.values ? in.values[i] : 0u, 0, 32 * r + lane);
      }
      if constexpr (Team::kShadow) {  // the simulator's reports name the operation
        const uint64_t i = first + 32 * r + lane;
        const uint32_t kind = t.shfl(in.kinds ? uint32_t(in.kinds[i < in.count ? i : 0]) : uint32_t(in.kind), src);
        t.note_operation(static_cast<OpKind>(kind), t.shfl(i < in.count ? in.keys[i] : 0u, src));
      }
      // serve() ends with a collective after its last shared access.
      const op_result res = s.serve(t, ops[0], src, state);
      if (res.status != op_status::done) return false;
      if (lane == src) {
        have &= ~1u;
        kind = res.kind;
        value = static_cast<uint32_t>(res.value);
        if (log) log->end(t, team, slot, res.kind, res.value);
      }
    }
    const uint64_t i = first + 32 * r + lane;
    if (i < in.count) {  // this lane had a round-r operation
      if (out) out[i] = kind == ResultKind::Value || kind == ResultKind::Bool ? value : kNoValue;
      if (batch) batch->results[i] = batch_log::result_word(kind, value);
    }
    for (uint32_t j = 0; j + 1 < K; ++j) ops[j] = ops[j + 1];
    have >>= 1;
  }
  if (batch) {
    t.sync();  // every lane's last access (its ballot above was after it) before lane 0's fence
    if (lane == 0) {
      t.fence(order::seq_cst, scope::gpu);
      batch->stamps[2 * size_t(team) + 1] = t.now(batch->clock, batch->ticket);
    }
  }
  return true;
}

}  // namespace warpcheck::core
