// The simulator's Team (see structures/core/team.hpp): one handle per lane.
// Every shared access first waits at a scheduling point, then happens
// atomically when the scheduler picks this lane: on memory itself, or, in
// the relaxed mode, through the model of relaxed_memory.hpp, which decides
// what a load sees from the access's order and scope.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "structures/core/sim/simulator.hpp"
#include "structures/core/team.hpp"

namespace warpcheck::sim {

class sim_team {
 public:
  static constexpr bool kShadow = true;  // shadow state and zombie tracking are live here

  sim_team(Simulator* sim, uint32_t global_lane, uint32_t team, uint32_t lane, uint32_t size)
      : sim_(sim), gid_(global_lane), team_(team), lane_(lane), size_(size) {}

  uint32_t lane() const { return lane_; }
  uint32_t size() const { return size_; }
  uint32_t team_id() const { return team_; }
  uint32_t global_lane() const { return gid_; }
  Simulator& simulator() const { return *sim_; }

  // ---- collectives: every lane of the team takes part ----
  uint32_t ballot(bool pred) { return static_cast<uint32_t>(sim_->collective(gid_, Collective::Ballot, pred, 0)); }
  bool any(bool pred) { return sim_->collective(gid_, Collective::Any, pred, 0) != 0; }
  bool all(bool pred) { return sim_->collective(gid_, Collective::All, pred, 0) != 0; }
  uint32_t count(bool pred) { return static_cast<uint32_t>(sim_->collective(gid_, Collective::Count, pred, 0)); }
  void sync() { sim_->collective(gid_, Collective::Sync, 0, 0); }
  template <class V>
  V shfl(V v, uint32_t src) {
    static_assert(std::is_trivially_copyable_v<V> && sizeof(V) <= 8, "shfl moves words of at most 64 bits");
    uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof(V));
    bits = sim_->collective(gid_, Collective::Shfl, bits, src);
    std::memcpy(&v, &bits, sizeof(V));
    return v;
  }

  // ---- shared words ----
  template <class W>
  W load(const W* p, core::order o, core::scope s) {
    check_word<W>();
    sim_->access(gid_, core::access::load, p, o, s);
    return from_bits<W>(sim_->read(gid_, p, sizeof(W), o, s));
  }
  template <class W>
  void store(W* p, W v, core::order o, core::scope s) {
    check_word<W>();
    sim_->access(gid_, core::access::store, p, o, s);
    sim_->write(gid_, p, sizeof(W), bits_of(v), o, s);
  }
  template <class W>
  W cas(W* p, W expected, W desired, core::order o, core::scope s) {
    return rmw(p, o, s, [&](W old) { return old == expected ? desired : old; });
  }
  template <class W>
  W exchange(W* p, W v, core::order o, core::scope s) {
    return rmw(p, o, s, [&](W) { return v; });
  }
  template <class W>
  W fetch_add(W* p, W v, core::order o, core::scope s) {
    return rmw(p, o, s, [&](W old) { return static_cast<W>(old + v); });
  }
  template <class W>
  W fetch_and(W* p, W v, core::order o, core::scope s) {
    return rmw(p, o, s, [&](W old) { return static_cast<W>(old & v); });
  }
  template <class W>
  W fetch_or(W* p, W v, core::order o, core::scope s) {
    return rmw(p, o, s, [&](W old) { return static_cast<W>(old | v); });
  }
  template <class W>
  W fetch_min(W* p, W v, core::order o, core::scope s) {
    return rmw(p, o, s, [&](W old) { return v < old ? v : old; });
  }
  void fence(core::order o, core::scope s) {
    sim_->access(gid_, core::access::fence, nullptr, o, s);
    sim_->fenced(gid_, o, s);
  }
  // A team-wide load, one word a lane (null: none), coalesced as on the GPU:
  // the words of one 128-byte segment are read at one step, segments at
  // steps of their own, so writes can fall between them (a torn read).
  template <class W>
  W load_coalesced(const W* p, core::order o, core::scope s) {
    check_word<W>();
    return from_bits<W>(sim_->coalesced_load(gid_, p, sizeof(W), o, s));
  }
  uint64_t last_load_step() const { return sim_->last_load_step(gid_); }
  uint64_t load_stamp() const { return sim_->config().clock_offset + last_load_step(); }  // on the recorder's clock

  // ---- spinning, locks, shadow state ----
  bool spin(const void* waiting_on, uint64_t iteration) { return sim_->spin(gid_, waiting_on, iteration); }
  void lock_acquired(const void* lock) { sim_->lock_acquired(gid_, lock); }
  void lock_released(const void* lock) { sim_->lock_released(gid_, lock); }
  void shadow_pool(const void* base, size_t unit_bytes, size_t units, const char* name,
                   core::unit_state initial = core::unit_state::uninitialized) {
    sim_->shadow().add_pool(base, unit_bytes, units, name, initial);
  }
  [[noreturn]] void fail(const char* what, const void* at) { sim_->fail(gid_, what, at); }
  void shadow_mark(const void* unit, core::unit_state s) { sim_->shadow().mark(unit, s); }
  // Zombies (see Simulator::retire / act_on) and what the team is doing.
  void retire(const void* unit) { sim_->retire(gid_, unit); }
  void act_on(const void* unit, uint64_t read_step, const char* what) { sim_->act_on(gid_, unit, read_step, what); }
  void note_operation(OpKind kind, int64_t key) {
    sim_->note_operation(gid_, std::string(op_kind_name(kind)) + "(" + std::to_string(key) + ")");
  }

  // ---- the recorder's operations, for guided runs (Simulator::operation_begins) ----
  void operation_begins(const void* log, uint32_t stream, uint32_t slot, uint32_t job, OpKind kind) {
    sim_->operation_begins(gid_, log, stream, slot, job, kind);
  }
  void operation_ends(const void* log, uint32_t stream, uint32_t slot, ResultKind kind, int64_t result) {
    sim_->operation_ends(gid_, log, stream, slot, kind, result);
  }

  // ---- recorder clock: the logical step ----
  uint64_t now(core::clock_kind, uint64_t* /*ticket*/) const { return sim_->config().clock_offset + sim_->step(); }

 private:
  template <class W>
  static constexpr void check_word() {
    static_assert(std::is_integral_v<W> && (sizeof(W) == 4 || sizeof(W) == 8),
                  "shared words are 32- or 64-bit integers");
  }
  template <class W>
  static W from_bits(uint64_t bits) {
    W v;
    std::memcpy(&v, &bits, sizeof(W));
    return v;
  }
  template <class W>
  static uint64_t bits_of(W v) {
    uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof(W));
    return bits;
  }
  // Atomic at its step: it acts on the newest value, whatever the mode.
  template <class W, class F>
  W rmw(W* p, core::order o, core::scope s, F next) {
    check_word<W>();
    sim_->access(gid_, core::access::rmw, p, o, s);
    const W old = *p;
    const W now = next(old);
    if (now != old) sim_->changed_by_rmw(gid_, p, sizeof(W));
    sim_->read_modify_write(gid_, p, sizeof(W), bits_of(old), bits_of(now), o, s);
    *p = now;
    return old;
  }

  Simulator* sim_;
  uint32_t gid_, team_, lane_, size_;
};
static_assert(core::WarpTeam<sim_team>, "the simulator's team meets the team contract (structures/core/team.hpp)");

}  // namespace warpcheck::sim
