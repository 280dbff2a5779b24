// warpcheck's team-and-memory layer (warpcheck::team): write a structure
// once, as a template over a Team, and run it in the deterministic
// simulator (sim::Simulator, one seed = one interleaving, replayable) or,
// compiled by nvcc, on the GPU (structures/core/cuda/warp_team.cuh,
// block_team.cuh). docs/team-and-memory-layer.md is the contract;
// docs/bring-your-own.md shows a structure written from outside.
//
//   sim::SimConfig c{.teams = 3, .lanes = 4, .seed = 7};
//   sim::Simulator simulator(c);
//   sim::RunReport run = simulator.run([&](sim::sim_team& t) { my_structure.push(t, ...); });
//   run.ok(), run.message, sim::encode_schedule(run.schedule)     // how it ended, and its interleaving
//
// Record what the lanes do with the drop-in recorder (warpcheck/record.cuh:
// record::HostRecorder, view().begin(t, kind, ...)); the simulator's step is
// the clock.
#pragma once
#include "structures/core/recorder/drop_in_log.hpp"
#include "structures/core/recorder/host_log.hpp"
#include "structures/core/sim/schedule.hpp"
#include "structures/core/sim/sim_team.hpp"
#include "structures/core/sim/simulator.hpp"
#include "structures/core/spin.hpp"
#include "structures/core/team.hpp"
