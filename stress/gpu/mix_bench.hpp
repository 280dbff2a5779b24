// A mixed-operation benchmark for any warp structure (the setting of
// chapter 5 of Moscovici's thesis, a GPU-friendly skiplist): prefill half of a key range with distinct keys, then
// `operations` operations whose kinds follow a mix [insert, delete,
// contains] and whose keys are uniform on the range, in blocks of
// `warps_per_block` warps. Plain C++; the runner is in mix_bench.cuh.
#pragma once
#include <cstdint>
#include <memory>

#include "structures/core/cuda/device_faults.hpp"
#include "structures/core/recorder/host_log.hpp"

namespace warpcheck::gpu {

struct MixBenchSpec {
  uint64_t range = 1 << 20;
  uint64_t operations = 10'000'000;
  uint32_t insert = 10, erase = 10;  // percent; the rest are contains
  uint32_t warps_per_block = 16;
  uint32_t ops_per_lane = 8;
  bool record = false;
  uint64_t seed = 1;

  uint64_t prefill() const { return range / 2; }
  // Warps for `ops` operations, rounded up to whole blocks.
  uint32_t teams_for(uint64_t ops) const {
    const uint64_t per_team = uint64_t(32) * ops_per_lane;
    const uint64_t teams = (ops + per_team - 1) / per_team;
    return static_cast<uint32_t>((teams + warps_per_block - 1) / warps_per_block * warps_per_block);
  }
  uint32_t teams() const { return teams_for(prefill()) > teams_for(operations) ? teams_for(prefill()) : teams_for(operations); }
};

struct MixBenchResult {
  double prefill_ms = 0, mix_ms = 0;
  uint64_t faults = 0;
  cuda_backend::device_faults first_fault{};  // the details of the first
  std::unique_ptr<HostLog> log;  // recording on: both launches (a kernel boundary is an exact cut)
};

}  // namespace warpcheck::gpu
