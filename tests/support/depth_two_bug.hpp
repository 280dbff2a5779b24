// A bug of depth two (tests/structures/core): team 0 sets a flag and
// clears it again; the others load it 20 times. The run "finds the bug"
// when one lane of team 1 sees the flag set in all 20 loads: it must run
// entirely between team 0's two stores. Schedulers are measured on it.
#pragma once
#include <cstdint>

#include <gtest/gtest.h>

#include "structures/core/sim/sim_team.hpp"
#include "structures/core/sim/simulator.hpp"

namespace warpcheck::sim {

inline bool depth_two_bug(const SimConfig& c) {
  uint32_t flag = 0, seen_set = 0;
  Simulator sim(c);
  const RunReport r = sim.run([&](sim_team& t) {
    if (t.team_id() == 0) {
      t.store(&flag, 1u, core::order::relaxed, core::scope::gpu);
      t.store(&flag, 0u, core::order::relaxed, core::scope::gpu);
    } else {
      for (int i = 0; i < 20; ++i) seen_set += t.load(&flag, core::order::relaxed, core::scope::gpu);
    }
  });
  EXPECT_TRUE(r.ok());
  return seen_set == 20;
}

}  // namespace warpcheck::sim
