// The CPU threads' role of a GPU-to-host litmus test (the last role of a
// LitmusTest with host_last), on pinned host memory the GPU roles share:
// compiled by the host compiler, so that the role's accesses are C++
// atomics (a CPU has no scopes: its accesses and fences are system-wide).
#pragma once
#include <cstdint>

#include "stress/litmus/litmus_roles.hpp"

namespace warpcheck::gpu {

struct HostRoles {
  LitmusShape shape = LitmusShape::mp;
  bool fenced = false;
  core::scope scope = core::scope::system;
  uint32_t role = 0;       // the host's: the test's last
  uint32_t gpu_roles = 1;  // an instance's roles on the GPU
  uint32_t instances = 0;
  uint32_t launch = 0;
  uint64_t spin_bound = 0;       // of each instance's meeting
  uint32_t* const* x = nullptr;  // per instance: its x (y is apart_words past it)
  uint64_t apart_words = 0;
  uint32_t* regs = nullptr;          // 16 an instance, 4 a role
  uint32_t* gpu_arrived = nullptr;   // instances x gpu_roles: launch + 1 once a GPU role arrived
  uint32_t* host_arrived = nullptr;  // instances: launch + 1 once the host's arrived
};

// Runs the host role of every instance on up to 8 CPU threads, each a share
// in order: arrive, wait (bounded) for the instance's GPU roles, run.
// Returns the instances whose GPU roles did not all arrive in time.
uint64_t run_host_roles(const HostRoles& r);

}  // namespace warpcheck::gpu
