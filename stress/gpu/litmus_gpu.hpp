// The litmus tests of stress/litmus/litmus.hpp as CUDA kernels, for what the real
// GPU shows beside what the simulator's memory models show. Plain C++ (the
// kernels are in litmus_gpu.cu).
//
// Each launch runs many instances of one test at once, a warp per role
// (its lane 0 runs the role's program, the accesses compiled with the
// test's orders and scopes), with the usual incantations of GPU litmus
// testing (Alglave et al., ASPLOS 2015; Kirkham et al., 2020): the roles of
// an instance meet at a bounded per-instance barrier before they start, an
// instance's words sit in cache lines of their own at a position drawn from
// the seed, roles run in different blocks or in one (as the test asks),
// and the other lanes of every warp hammer a stress buffer meanwhile. A
// test whose last team is on the host (host_last) runs that role on CPU
// threads (litmus_host_role.hpp) over pinned, mapped host memory, the GPU
// roles reading and writing it across the bus.
#pragma once
#include <cstdint>

#include "stress/litmus/litmus.hpp"

namespace warpcheck::gpu {

struct LitmusGpuSettings {
  uint32_t instances = 2048;  // a launch's
  uint32_t launches = 100;
  bool stress = true;         // lanes 1-31 hammer a stress buffer
  uint32_t jitter = 0;        // each role waits 0..jitter-1 clock cycles (seeded) after the barrier
  uint64_t seed = 1;
  // How far an instance's y is from its x, in bytes: 128 (the next line),
  // or at least instances x 128 (x in one region, y as far past it), so
  // that x and y can sit in different L2 slices and partitions.
  uint64_t apart_bytes = 128;
};

struct LitmusGpuCount {
  uint64_t runs = 0, weak = 0, interleaved = 0;
  uint64_t barrier_timeouts = 0;  // instances whose roles did not all meet (they ran anyway)
};

// Throws std::runtime_error on a CUDA error, std::invalid_argument for an
// apart_bytes that is neither 128 nor a multiple of 128 of at least
// instances x 128.
LitmusGpuCount run_litmus_gpu(const LitmusTest& test, const LitmusGpuSettings& s);

}  // namespace warpcheck::gpu
