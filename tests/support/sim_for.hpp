// The simulator configuration a structure's tests run under. The suites
// differ only in the shape they run (teams, lanes a team) and in how they
// size PCT (its k: about one run's steps at the suite's size; its depth);
// everything else is sim::SimConfig's default.
#pragma once

#include <cstdint>

#include "structures/core/sim/simulator.hpp"

namespace warpcheck::test {

// What a suite sets beyond the seed and the scheduler.
struct SimShape {
  uint32_t teams = 1;
  uint32_t lanes = sim::SimConfig{}.lanes;
  uint64_t pct_steps = sim::SimConfig{}.pct_steps;
  uint32_t pct_depth = sim::SimConfig{}.pct_depth;
};

inline sim::SimConfig sim_for(const SimShape& shape, uint64_t seed, sim::SchedulerKind kind = sim::SchedulerKind::Random) {
  sim::SimConfig s;
  s.teams = shape.teams;
  s.lanes = shape.lanes;
  s.seed = seed;
  s.scheduler = kind;
  s.pct_depth = shape.pct_depth;
  s.pct_steps = shape.pct_steps;
  return s;
}

}  // namespace warpcheck::test
