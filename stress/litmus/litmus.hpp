// Litmus tests of the simulator's memory models: the classic shapes (MP,
// SB, LB, WRC, IRIW, CoRR, CoWW, and MP-wide: MP whose flag is also read
// at twice its width), each unfenced and with the fences or
// release/acquire that forbid its weak outcome under PTX, at cta, gpu and
// system scope, with the teams in one block or in different ones, or the
// last team a CPU thread on the host (only system scope reaches it). Each team is one
// lane; a run's outcome is its registers. The table they give is in
// docs/relaxed-memory.md and bench/RESULTS.md, "Relaxed memory and litmus tests"
// (bench/litmus.cpp prints it).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "stress/litmus/litmus_roles.hpp"
#include "structures/core/memory_order.hpp"
#include "structures/core/sim/simulator.hpp"

namespace warpcheck {

// A test: a shape's programs (stress/litmus/litmus_roles.hpp, run on the
// simulator's teams and as CUDA kernels), how fenced, and its outcomes.
struct LitmusTest {
  std::string name;       // "MP"
  std::string variant;    // "relaxed", "gpu scope, two blocks", ...
  LitmusShape shape = LitmusShape::mp;
  bool fenced = false;                   // with what forbids the weak outcome at `scope`
  core::scope scope = core::scope::gpu;
  uint32_t teams = 2;
  bool same_block = false;      // the teams share a block (cta scope reaches across them)
  bool host_last = false;       // the last team is a CPU thread (gpu scope does not reach it)
  bool allowed_by_ptx = true;   // the weak outcome, under the PTX memory model
  bool model_produces = true;   // relaxed mode can produce it (false: a documented gap)
  std::function<bool(const uint64_t* regs)> weak;  // regs: 4 a team
  std::string weak_text;                           // "r0=1 r1=0"
  // An outcome that no serial order of the teams gives, only an
  // interleaving of their accesses (SB: both loads saw 1): how often the
  // roles really overlapped. On hardware, a harness that never interleaves
  // them cannot show a weak outcome. (There MP's, LB's and CoRR's can also
  // come from a stale read; SB's cannot: a load cannot read a store that
  // was not issued yet.)
  std::function<bool(const uint64_t* regs)> interleaved;
  std::string interleaved_text;
};

// Every test: each shape unfenced, and fenced at cta scope (same block and
// across blocks), at gpu and system scope, and at gpu and system scope with
// the last team on the host.
std::vector<LitmusTest> litmus_tests();

struct LitmusCount {
  uint64_t runs = 0, weak = 0, interleaved = 0;
  uint64_t first_weak_seed = 0;  // 0: none
};
// `seeds` runs from `first_seed` in the given memory model; `serial`: each
// team runs to its end before the next starts (in a seeded order).
LitmusCount run_litmus(const LitmusTest& test, sim::MemoryModel model, uint64_t seeds, uint64_t first_seed = 1,
                       bool serial = false);

}  // namespace warpcheck
