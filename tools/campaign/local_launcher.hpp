// Shards as child processes of this one: a slot is a process at a time,
// either one of P on the cores (--local P) or one a GPU (--gpus, the slot's
// CUDA_VISIBLE_DEVICES naming its device). Each child runs
// `warpcheck campaign --run-shard DIR I`, as a Slurm task would.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "stress/campaign/campaign_dir.hpp"
#include "tools/campaign/campaign_progress.hpp"

namespace warpcheck::cli {

struct LocalSlot {
  std::string name;                         // "process 2", "GPU 1"
  std::map<std::string, std::string> env;  // set for its children
};

// P slots sharing `cores` (each child's OpenMP threads: cores / P, at least one).
std::vector<LocalSlot> process_slots(uint32_t processes, uint32_t cores);
// One slot a device, its children seeing only it.
std::vector<LocalSlot> gpu_slots(const std::vector<std::string>& devices, uint32_t cores);
// The devices to hand out: where CUDA_VISIBLE_DEVICES is set, its entries
// (the `count` devices this process sees are those), else 0 to count - 1.
std::vector<std::string> visible_devices(int count, const char* cuda_visible_devices);

struct WaitLimits {
  double deadline_seconds = 86400;  // the whole wait; shards still running then are stopped (local) or left (Slurm)
  bool quiet = false;
};

// How a launcher's wait ended: every shard ended, the deadline passed, or
// a stop signal came (StopSignals).
enum class WaitEnd { Ended, Deadline, Stopped };

// Runs the shards, one child a slot at a time, until every one ended, the
// deadline passed or a stop signal came (then the children left are
// stopped: SIGTERM, SIGKILL after a few seconds). Each child dies with
// this process too (start_process's die_with_parent). A shard that ended
// without its result gets an exit note saying how it ended.
WaitEnd run_local(const campaign::CampaignDir& dir, const std::vector<uint32_t>& shards, const std::vector<LocalSlot>& slots,
                  const WaitLimits& limits, CampaignProgress& progress);

}  // namespace warpcheck::cli
