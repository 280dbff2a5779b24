#include "tools/campaign/local_launcher.hpp"

#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <thread>

#include "tools/campaign/child_process.hpp"

namespace warpcheck::cli {

using namespace warpcheck::campaign;
using clock_type = std::chrono::steady_clock;

std::vector<LocalSlot> process_slots(uint32_t processes, uint32_t cores) {
  std::vector<LocalSlot> slots;
  const std::string threads = std::to_string(std::max<uint32_t>(1, cores / std::max<uint32_t>(processes, 1)));
  for (uint32_t i = 0; i < processes; ++i) slots.push_back({"process " + std::to_string(i), {{"OMP_NUM_THREADS", threads}}});
  return slots;
}

std::vector<LocalSlot> gpu_slots(const std::vector<std::string>& devices, uint32_t cores) {
  std::vector<LocalSlot> slots = process_slots(uint32_t(devices.size()), cores);
  for (size_t i = 0; i < devices.size(); ++i) {
    slots[i].name = "GPU " + devices[i];
    slots[i].env["CUDA_VISIBLE_DEVICES"] = devices[i];
  }
  return slots;
}

std::vector<std::string> visible_devices(int count, const char* cuda_visible_devices) {
  std::vector<std::string> out;
  if (cuda_visible_devices && *cuda_visible_devices) {
    const std::string list = cuda_visible_devices;
    for (size_t start = 0; start <= list.size() && int(out.size()) < count;) {
      const size_t end = std::min(list.find(',', start), list.size());
      if (end > start) out.push_back(list.substr(start, end - start));
      start = end + 1;
    }
    return out;
  }
  for (int i = 0; i < count; ++i) out.push_back(std::to_string(i));
  return out;
}

namespace {

// Test hook: the shards do not die with the launcher, as where no death
// signal exists, so that a test can check that --resume leaves live shards alone.
constexpr const char* kOrphanShardsVariable = "WARPCHECK_CAMPAIGN_TEST_ORPHAN_SHARDS";

struct Running {
  pid_t pid;
  uint32_t shard;
  size_t slot;
};

// A shard that ended without its result: say how, for the report.
void note_ending(const CampaignDir& dir, const Running& r, const LocalSlot& slot, const std::string& how) {
  if (std::filesystem::exists(dir.result(r.shard))) return;
  write_atomically(dir.exit_note(r.shard), how + " (" + slot.name + ", pid " + std::to_string(r.pid) + "; log " + dir.log(r.shard) + ")\n");
}

void stop_all(const CampaignDir& dir, std::vector<Running>& running, const std::vector<LocalSlot>& slots, const std::string& why) {
  for (const Running& r : running) ::kill(r.pid, SIGTERM);
  const auto give_up = clock_type::now() + std::chrono::seconds(5);
  for (const Running& r : running) {
    int status = 0;
    while (!has_ended(r.pid, &status)) {
      if (clock_type::now() > give_up) {
        ::kill(r.pid, SIGKILL);
        ::waitpid(r.pid, &status, 0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    note_ending(dir, r, slots[r.slot], why);
  }
  running.clear();
}

}  // namespace

WaitEnd run_local(const CampaignDir& dir, const std::vector<uint32_t>& shards, const std::vector<LocalSlot>& slots,
                  const WaitLimits& limits, CampaignProgress& progress) {
  const std::string self = self_executable();
  const bool die_with_launcher = !std::getenv(kOrphanShardsVariable);
  const auto deadline = clock_type::now() + std::chrono::duration<double>(limits.deadline_seconds);
  std::deque<uint32_t> queue(shards.begin(), shards.end());
  std::vector<bool> busy(slots.size(), false);
  std::vector<Running> running;
  while (!queue.empty() || !running.empty()) {
    for (size_t s = 0; s < slots.size() && !queue.empty(); ++s) {
      if (busy[s]) continue;
      const uint32_t shard = queue.front();
      queue.pop_front();
      forget_attempt(dir, shard);
      std::ofstream(dir.log(shard), std::ios::app) << "== warpcheck campaign: shard " << shard << " on " << slots[s].name << "\n";
      running.push_back({start_process({self, "campaign", "--run-shard", dir.root, std::to_string(shard)}, slots[s].env, dir.log(shard),
                                       die_with_launcher),
                         shard, s});
      busy[s] = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    for (auto it = running.begin(); it != running.end();) {
      int status = 0;
      if (!has_ended(it->pid, &status)) {
        ++it;
        continue;
      }
      note_ending(dir, *it, slots[it->slot], describe_wait_status(status));
      busy[it->slot] = false;
      it = running.erase(it);
    }
    progress.tick();
    if (running.empty() && queue.empty()) break;
    if (const int signal = stop_signal()) {
      stop_all(dir, running, slots, "stopped: the campaign got " + signal_name(signal));
      return WaitEnd::Stopped;
    }
    if (clock_type::now() > deadline) {
      stop_all(dir, running, slots, "stopped at the campaign's deadline (--deadline " + std::to_string(int(limits.deadline_seconds)) + ")");
      return WaitEnd::Deadline;
    }
  }
  return WaitEnd::Ended;
}

}  // namespace warpcheck::cli
