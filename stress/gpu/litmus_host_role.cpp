#include "stress/gpu/litmus_host_role.hpp"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

#include "structures/core/threads/thread_team.hpp"

namespace warpcheck::gpu {

namespace {

// The test's orders as C++ atomics on host memory (the real-threads
// back-end's mapping).
struct host_lane {
  using orders = threads::thread_team;
  template <class W>
  W load(const W* p, core::order o, core::scope) { return std::atomic_ref<W>(*const_cast<W*>(p)).load(orders::load_order(o)); }
  template <class W>
  void store(W* p, W v, core::order o, core::scope) { std::atomic_ref<W>(*p).store(v, orders::store_order(o)); }
  void fence(core::order o, core::scope) { std::atomic_thread_fence(orders::rmw_order(o)); }
};

}  // namespace

uint64_t run_host_roles(const HostRoles& r) {
  const uint32_t cpus = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  std::atomic<uint64_t> timeouts{0};
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < cpus; ++t)
    threads.emplace_back([&, t] {
      host_lane me;
      for (uint32_t i = t; i < r.instances; i += cpus) {
        std::atomic_ref<uint32_t>(r.host_arrived[i]).store(r.launch + 1, std::memory_order_relaxed);
        auto met = [&] {
          for (uint32_t g = 0; g < r.gpu_roles; ++g)
            if (std::atomic_ref<uint32_t>(r.gpu_arrived[size_t(i) * r.gpu_roles + g]).load(std::memory_order_relaxed) != r.launch + 1)
              return false;
          return true;
        };
        uint64_t spins = 0;
        while (!met() && ++spins < r.spin_bound) {
        }
        if (spins >= r.spin_bound) ++timeouts;
        uint32_t* x = r.x[i];
        run_litmus_role(me, r.shape, r.fenced, r.scope, r.role, x, x + r.apart_words, r.regs + size_t(i) * 16 + r.role * 4);
      }
    });
  for (std::thread& t : threads) t.join();
  return timeouts.load();
}

}  // namespace warpcheck::gpu
