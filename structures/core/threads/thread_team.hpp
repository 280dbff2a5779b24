// The real-threads back-end: every lane on its own OS thread, shared words
// through std::atomic_ref with the asked order (weak accesses are plain), so
// that ThreadSanitizer sees what the scheduler's sequentially consistent
// interleavings cannot: races on plain accesses and missing
// release/acquire pairs. Collectives are a per-team barrier; every wait is
// bounded. The clock is a global atomic ticket. Shadow state and lock
// annotations are not tracked here (the simulator has them).
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <thread>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "structures/core/team.hpp"

namespace warpcheck::threads {

// Thrown on a lane when its run cannot go on (a collective timed out, a
// spin loop hit its bound in a way the structure does not handle).
struct lane_fault : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct run_state {
  uint64_t spin_bound = 1'000'000;
  std::chrono::milliseconds collective_timeout{20'000};
  std::atomic<uint64_t> ticket{0};
  std::atomic<uint32_t> faults{0};
  std::mutex message_mutex;
  std::string first_fault;
  void fault(const std::string& what) {
    if (faults.fetch_add(1) == 0) {
      std::lock_guard<std::mutex> g(message_mutex);
      first_fault = what;
    }
  }
};

// One team's meeting point for collectives.
class team_barrier {
 public:
  explicit team_barrier(uint32_t lanes) : in_(lanes), out_(lanes), src_(lanes) {}
  // kind: 0 sync, 1 ballot, 2 shfl, 3 any, 4 all, 5 count
  uint64_t meet(run_state& run, uint32_t lane, uint8_t kind, uint64_t value, uint32_t src) {
    std::unique_lock<std::mutex> lock(m_);
    const uint64_t gen = generation_;
    if (arrived_ == 0) kind_ = kind;
    else if (kind_ != kind) throw lane_fault("lanes of a team met at different collectives");
    in_[lane] = value;
    src_[lane] = src;
    const uint32_t n = static_cast<uint32_t>(in_.size());
    if (++arrived_ == n) {
      uint64_t mask = 0, count = 0;
      for (uint32_t i = 0; i < n; ++i)
        if (in_[i]) {
          mask |= uint64_t(1) << (i & 63);
          ++count;
        }
      for (uint32_t i = 0; i < n; ++i)
        out_[i] = kind == 1 ? mask : kind == 2 ? in_[src_[i] % n] : kind == 3 ? count > 0 : kind == 4 ? count == n : count;
      arrived_ = 0;
      ++generation_;
      cv_.notify_all();
      return out_[lane];
    }
    // Bounded: give up when another lane faulted or past the timeout.
    const auto deadline = std::chrono::steady_clock::now() + run.collective_timeout;
    while (!cv_.wait_for(lock, std::chrono::milliseconds(20), [&] { return generation_ != gen; })) {
      if (run.faults.load() != 0) throw lane_fault("stopped: another lane faulted");
      if (std::chrono::steady_clock::now() > deadline)
        throw lane_fault("a collective waited past its timeout: some lane of the team never arrived");
    }
    return out_[lane];
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  uint32_t arrived_ = 0;
  uint64_t generation_ = 0;
  uint8_t kind_ = 0;
  std::vector<uint64_t> in_, out_;
  std::vector<uint32_t> src_;
};

class thread_team {
 public:
  thread_team(run_state* run, team_barrier* barrier, uint32_t team, uint32_t lane, uint32_t size)
      : run_(run), barrier_(barrier), team_(team), lane_(lane), size_(size) {}

  uint32_t lane() const { return lane_; }
  uint32_t size() const { return size_; }
  uint32_t team_id() const { return team_; }

  uint32_t ballot(bool p) {
    if (size_ > 32) throw lane_fault("ballot on a team of more than 32 lanes");
    return static_cast<uint32_t>(barrier_->meet(*run_, lane_, 1, p, 0));
  }
  bool any(bool p) { return barrier_->meet(*run_, lane_, 3, p, 0) != 0; }
  bool all(bool p) { return barrier_->meet(*run_, lane_, 4, p, 0) != 0; }
  uint32_t count(bool p) { return static_cast<uint32_t>(barrier_->meet(*run_, lane_, 5, p, 0)); }
  void sync() { barrier_->meet(*run_, lane_, 0, 0, 0); }
  template <class V>
  V shfl(V v, uint32_t src) {
    static_assert(std::is_trivially_copyable_v<V> && sizeof(V) <= 8, "shfl moves words of at most 64 bits");
    uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof(V));
    bits = barrier_->meet(*run_, lane_, 2, bits, src);
    std::memcpy(&v, &bits, sizeof(V));
    return v;
  }

  template <class W>
  W load(const W* p, core::order o, core::scope) {
    if (o == core::order::weak) return *p;
    return std::atomic_ref<W>(*const_cast<W*>(p)).load(load_order(o));
  }
  template <class W>
  void store(W* p, W v, core::order o, core::scope) {
    if (o == core::order::weak) *p = v;
    else std::atomic_ref<W>(*p).store(v, store_order(o));
  }
  template <class W>
  W cas(W* p, W expected, W desired, core::order o, core::scope) {
    std::atomic_ref<W>(*p).compare_exchange_strong(expected, desired, rmw_order(o), load_order(o));
    return expected;
  }
  template <class W>
  W exchange(W* p, W v, core::order o, core::scope) {
    return std::atomic_ref<W>(*p).exchange(v, rmw_order(o));
  }
  template <class W>
  W fetch_add(W* p, W v, core::order o, core::scope) {
    return std::atomic_ref<W>(*p).fetch_add(v, rmw_order(o));
  }
  template <class W>
  W fetch_and(W* p, W v, core::order o, core::scope) {
    return std::atomic_ref<W>(*p).fetch_and(v, rmw_order(o));
  }
  template <class W>
  W fetch_or(W* p, W v, core::order o, core::scope) {
    return std::atomic_ref<W>(*p).fetch_or(v, rmw_order(o));
  }
  template <class W>
  W fetch_min(W* p, W v, core::order o, core::scope) {
    std::atomic_ref<W> r(*p);
    W old = r.load(std::memory_order_relaxed);
    while (v < old && !r.compare_exchange_weak(old, v, rmw_order(o), std::memory_order_relaxed)) {
    }
    return old;
  }
  void fence(core::order o, core::scope) {
    std::atomic_thread_fence(rmw_order(o));
  }

  bool spin(const void*, uint64_t iteration) {
    if (iteration > run_->spin_bound) {
      run_->fault("team " + std::to_string(team_) + " lane " + std::to_string(lane_) + " spin bound");
      return false;
    }
    std::this_thread::yield();
    return true;
  }
  [[noreturn]] void fail(const char* what, const void*) { throw lane_fault(what); }
  void lock_acquired(const void*) {}
  void lock_released(const void*) {}
  void shadow_pool(const void*, size_t, size_t, const char*, core::unit_state = core::unit_state::uninitialized) {}
  void shadow_mark(const void*, core::unit_state) {}
  static constexpr bool kShadow = false;
  template <class W>
  W load_coalesced(const W* p, core::order o, core::scope s) {
    return p ? load(p, o, s) : W{};
  }
  uint64_t last_load_step() const { return 0; }
  void retire(const void*) {}
  void act_on(const void*, uint64_t, const char*) {}
  void note_operation(OpKind, int64_t) {}

  uint64_t now(core::clock_kind, uint64_t*) const { return run_->ticket.fetch_add(1, std::memory_order_seq_cst); }

  // The layer's orders as C++'s (also the GPU-to-host litmus tests' CPU role).
  static constexpr std::memory_order load_order(core::order o) {
    return o == core::order::acquire || o == core::order::acq_rel ? std::memory_order_acquire
           : o == core::order::seq_cst                             ? std::memory_order_seq_cst
                                                                   : std::memory_order_relaxed;
  }
  static constexpr std::memory_order store_order(core::order o) {
    return o == core::order::release || o == core::order::acq_rel ? std::memory_order_release
           : o == core::order::seq_cst                             ? std::memory_order_seq_cst
                                                                   : std::memory_order_relaxed;
  }
  static constexpr std::memory_order rmw_order(core::order o) {
    switch (o) {
      case core::order::acquire: return std::memory_order_acquire;
      case core::order::release: return std::memory_order_release;
      case core::order::acq_rel: return std::memory_order_acq_rel;
      case core::order::seq_cst: return std::memory_order_seq_cst;
      default: return std::memory_order_relaxed;
    }
  }

 private:
  run_state* run_;
  team_barrier* barrier_;
  uint32_t team_, lane_, size_;
};
static_assert(core::WarpTeam<thread_team>, "the real-threads team meets the team contract (structures/core/team.hpp)");

}  // namespace warpcheck::threads
