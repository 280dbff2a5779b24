// The team-and-memory contract that every structure is written against.
//
// A structure is a template over a Team type and touches shared words only
// through a Team `t` (each lane calls with its own handle):
//
//   identity     t.lane(), t.size(), t.team_id()
//   collectives  t.ballot(pred) (teams of at most 32 lanes), t.shfl(v, src),
//                t.any(pred), t.all(pred), t.count(pred), t.sync()
//                (every lane of the team takes part, CUDA's full-mask rule)
//   memory       t.load(p, order, scope), t.store(p, v, order, scope),
//                t.cas(p, expected, desired, order, scope) -> old value,
//                t.exchange, t.fetch_add, t.fetch_and, t.fetch_or, t.fetch_min,
//                t.fence(order, scope); words of 32 or 64 bits
//   spinning     t.spin(waiting_on) -> false once this loop made no progress
//                for the run's bound: the loop must then give up (the
//                back-end has recorded the fault)
//   annotations  t.lock_acquired(lock) / t.lock_released(lock): owners, for
//                wait-for cycles; t.shadow(...): unit states of pools the
//                structure manages (see sim/shadow_memory.hpp);
//                t.retire(unit) marks a unit logically deleted (a zombie)
//                and t.act_on(unit, read_step, what) says a decision rests
//                on what was read of it at read_step (t.last_load_step()):
//                the zombie-traversal oracle; t.note_operation(kind, key)
//                names the team's operation in reports; all cost nothing
//                on the GPU (Team::kShadow is false there)
//   coalesced    t.load_coalesced(p): every lane loads one word (null: none)
//                as one team-wide access; the simulator reads the words of
//                one 128-byte segment at one step, as the GPU's transactions
//   clock        t.now(clock): a timestamp for the recorder
//   operations   t.operation_begins / operation_ends (optional,
//                RecordsOperations): the recorder's operations as they
//                begin and end, for the simulator's guided runs
//
// Back-ends: cuda/warp_team.cuh and cuda/block_team.cuh (the GPU),
// sim/sim_team.hpp (the deterministic simulator), threads/thread_team.hpp
// (OS threads, for ThreadSanitizer).
#pragma once
#include <concepts>
#include <cstdint>

#include "models/op.hpp"
#include "structures/core/config.hpp"
#include "structures/core/memory_order.hpp"

namespace warpcheck::core {

// Shadow states of a pool unit (memory a structure allocates itself).
enum class unit_state : uint8_t {
  uninitialized,  // never handed out: nothing may touch it
  allocated,      // live: any access
  retired,        // unlinked, maybe still reachable (a zombie): loads only
  freed,          // back in the pool: nothing may touch it until reallocated
};

// Where the recorder's timestamps come from.
enum class clock_kind : uint8_t {
  global_timer,  // GPU %globaltimer (ns); the simulator's step counter
  ticket,        // a global atomic ticket: exact order, one shared counter
};

// Lowest set bit, 0-based (CUDA's __ffs is 1-based); -1 for 0.
WC_HD WC_FORCE_INLINE int lowest_lane(uint32_t mask) {
#if defined(__CUDA_ARCH__)
  return __ffs(mask) - 1;
#else
  return mask ? __builtin_ctz(mask) : -1;
#endif
}

// Highest set bit, 0-based; -1 for 0.
WC_HD WC_FORCE_INLINE int highest_lane(uint32_t mask) {
#if defined(__CUDA_ARCH__)
  return 31 - __clz(mask);
#else
  return mask ? 31 - __builtin_clz(mask) : -1;
#endif
}

WC_HD WC_FORCE_INLINE int popcount(uint32_t mask) {
#if defined(__CUDA_ARCH__)
  return __popc(mask);
#else
  return __builtin_popcount(mask);
#endif
}

// The contract above, as concepts: a back-end's team that lacks a piece
// fails to compile with that piece named (each back-end asserts it).
// Every team: identity, collectives but ballot, memory, spins, annotations,
// the clock (a block; any team).
template <class T>
concept Team = requires(T t, const T ct, uint32_t* w32, uint64_t* w64, const uint32_t* r32, const uint64_t* r64, bool b,
                        uint32_t v32, uint64_t v64, const void* at, uint64_t* ticket) {
  { ct.lane() } -> std::convertible_to<uint32_t>;
  { ct.size() } -> std::convertible_to<uint32_t>;
  { ct.team_id() } -> std::convertible_to<uint32_t>;
  { t.any(b) } -> std::convertible_to<bool>;
  { t.all(b) } -> std::convertible_to<bool>;
  { t.count(b) } -> std::convertible_to<uint32_t>;
  t.sync();
  { t.shfl(v32, v32) } -> std::same_as<uint32_t>;
  { t.shfl(v64, v32) } -> std::same_as<uint64_t>;
  { t.load(r32, order::acquire, scope::gpu) } -> std::same_as<uint32_t>;
  { t.load(r64, order::acquire, scope::gpu) } -> std::same_as<uint64_t>;
  t.store(w32, v32, order::release, scope::gpu);
  t.store(w64, v64, order::release, scope::gpu);
  { t.cas(w32, v32, v32, order::acq_rel, scope::gpu) } -> std::same_as<uint32_t>;
  { t.cas(w64, v64, v64, order::acq_rel, scope::gpu) } -> std::same_as<uint64_t>;
  { t.exchange(w32, v32, order::acq_rel, scope::gpu) } -> std::same_as<uint32_t>;
  { t.fetch_add(w32, v32, order::relaxed, scope::gpu) } -> std::same_as<uint32_t>;
  { t.fetch_and(w32, v32, order::relaxed, scope::gpu) } -> std::same_as<uint32_t>;
  { t.fetch_or(w32, v32, order::relaxed, scope::gpu) } -> std::same_as<uint32_t>;
  { t.fetch_min(w32, v32, order::relaxed, scope::gpu) } -> std::same_as<uint32_t>;
  t.fence(order::seq_cst, scope::gpu);
  { t.spin(at, v64) } -> std::convertible_to<bool>;
  t.lock_acquired(at);
  t.lock_released(at);
  t.shadow_mark(at, unit_state::freed);
  t.fail("what", at);
  { T::kShadow } -> std::convertible_to<bool>;
  { t.load_coalesced(r64, order::relaxed, scope::gpu) } -> std::same_as<uint64_t>;
  { ct.last_load_step() } -> std::convertible_to<uint64_t>;
  t.retire(at);
  t.act_on(at, v64, "what");
  t.note_operation(OpKind::Find, int64_t{0});
  { ct.now(clock_kind::ticket, ticket) } -> std::convertible_to<uint64_t>;
};

// A team that takes the recorder's operations as they begin and end (the
// simulator's: a guided run steers by them; sim/guidance.hpp). Optional:
// the recorder tells only teams that have it, so nothing changes elsewhere.
template <class T>
concept RecordsOperations = requires(T t, const void* log, uint32_t n, int64_t v) {
  t.operation_begins(log, n, n, n, OpKind::Find);
  t.operation_ends(log, n, n, ResultKind::Bool, v);
};

// A team of at most 32 lanes, with a ballot (a warp; the simulator's and
// real threads' teams of that size).
template <class T>
concept WarpTeam = Team<T> && requires(T t, bool b) {
  { t.ballot(b) } -> std::convertible_to<uint32_t>;
};

}  // namespace warpcheck::core
