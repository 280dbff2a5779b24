#include "tools/campaign/slurm_launcher.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "tools/campaign/child_process.hpp"

namespace warpcheck::cli {

using namespace warpcheck::campaign;
using clock_type = std::chrono::steady_clock;

namespace {

constexpr double kCommandTimeout = 60;  // seconds an sbatch or squeue call may take

std::string shell_quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\r')) s.pop_back();
  return s;
}

enum class JobState { Queued, Gone, Unknown };

JobState job_state(const std::string& job) {
  const CommandResult r = run_command({"squeue", "--noheader", "--jobs", job, "--format", "%i"}, kCommandTimeout);
  if (r.started && r.exit_code == 0) return trimmed(r.out).empty() ? JobState::Gone : JobState::Queued;
  // squeue refuses ids it has already forgotten (MinJobAge after the end).
  if (r.started && r.error.find("Invalid job id") != std::string::npos) return JobState::Gone;
  return JobState::Unknown;
}

}  // namespace

std::string array_spec(const std::vector<uint32_t>& shards, uint32_t max_parallel) {
  std::ostringstream spec;
  for (size_t i = 0; i < shards.size();) {
    size_t j = i;  // the run of consecutive ids from i
    while (j + 1 < shards.size() && shards[j + 1] == shards[j] + 1) ++j;
    spec << (i ? "," : "") << shards[i];
    if (j > i) spec << "-" << shards[j];
    i = j + 1;
  }
  if (max_parallel) spec << "%" << max_parallel;
  return spec.str();
}

std::string sbatch_script(const CampaignDir& dir, const std::string& warpcheck, const std::vector<uint32_t>& shards,
                          const SlurmOptions& o) {
  const std::string d = shell_quoted(dir.root);
  std::ostringstream s;
  s << "#!/bin/bash\n"
    << "# warpcheck campaign: the shards of " << dir.root << " as a Slurm job array, one shard a task.\n"
    << "# Written by warpcheck campaign; submit with `sbatch " << dir.sbatch_script() << "`,\n"
    << "# then `warpcheck campaign --merge " << dir.root << "` merges what finished.\n"
    << "#SBATCH --job-name=warpcheck-campaign\n"
    << "#SBATCH --array=" << array_spec(shards, o.max_parallel) << "\n"
    << "#SBATCH --output=" << dir.logs() << "/shard-%4a.log\n"
    << "#SBATCH --open-mode=append\n";
  if (!o.sbatch_args.empty()) s << "#SBATCH " << o.sbatch_args << "\n";
  s << "export OMP_NUM_THREADS=${SLURM_CPUS_PER_TASK:-1}\n"
    << "shard=$SLURM_ARRAY_TASK_ID\n"
    << shell_quoted(warpcheck) << " campaign --run-shard " << d << " \"$shard\"\n"
    << "rc=$?\n"
    << "# A task that ended without its result says how, for the merged report.\n"
    << "name=$(printf 'shard-%04d' \"$shard\")\n"
    << "if [ ! -e " << d << "/shards/$name.json ]; then\n"
    << "  if [ $rc -gt 128 ]; then how=\"killed by signal $((rc - 128))\"; else how=\"exit code $rc\"; fi\n"
    << "  echo \"$how (Slurm job ${SLURM_ARRAY_JOB_ID}_$shard on $(hostname); log " << dir.logs() << "/$name.log)\" > "
    << d << "/shards/$name.exit.tmp.$$ && mv -f " << d << "/shards/$name.exit.tmp.$$ " << d << "/shards/$name.exit\n"
    << "fi\n"
    << "exit $rc\n";
  return s.str();
}

std::string submit_job(const CampaignDir& dir) {
  const CommandResult r = run_command({"sbatch", "--parsable", dir.sbatch_script()}, kCommandTimeout);
  if (!r.started) throw std::invalid_argument("--slurm: sbatch is not on PATH (" + r.error + "); --no-submit writes the script only");
  const std::string out = trimmed(r.out);
  const std::string job = out.substr(0, out.find(';'));  // "id;cluster" on federated clusters
  if (r.exit_code != 0 || job.empty() || job.find_first_not_of("0123456789") != std::string::npos)
    throw std::invalid_argument("sbatch " + dir.sbatch_script() + " failed (exit " + std::to_string(r.exit_code) + "): " +
                                trimmed(r.error.empty() ? r.out : r.error) + "\n(the plan stays: `warpcheck campaign --resume " +
                                dir.root + " --slurm` submits again)");
  std::ofstream(dir.slurm_jobs(), std::ios::app) << job << "\n";
  return job;
}

std::string active_job(const CampaignDir& dir) {
  std::ifstream in(dir.slurm_jobs());
  std::string job, last;
  while (in >> job) last = job;
  if (last.empty()) return "";
  return job_state(last) == JobState::Queued ? last : "";
}

WaitEnd wait_for_job(const CampaignDir& dir, const std::string& job, const std::vector<uint32_t>& shards, const WaitLimits& limits,
                     CampaignProgress& progress) {
  const auto deadline = clock_type::now() + std::chrono::duration<double>(limits.deadline_seconds);
  auto last_asked = clock_type::now();
  auto all_finished = [&] {
    for (uint32_t s : shards)
      if (!std::filesystem::exists(dir.result(s))) return false;
    return true;
  };
  while (true) {
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
    progress.tick();
    if (all_finished()) return WaitEnd::Ended;
    if (stop_signal()) return WaitEnd::Stopped;
    if (clock_type::now() - last_asked > std::chrono::seconds(2)) {
      last_asked = clock_type::now();
      // Gone from the queue: every task has ended, with its result or without.
      if (job_state(job) == JobState::Gone) return WaitEnd::Ended;
    }
    if (clock_type::now() > deadline) return WaitEnd::Deadline;
  }
}

std::string cancel_job(const std::string& job) {
  const CommandResult r = run_command({"scancel", job}, kCommandTimeout);
  if (r.started && r.exit_code == 0) return "";
  return "scancel " + job + ": " + trimmed(r.error.empty() ? r.out : r.error);
}

}  // namespace warpcheck::cli
