// Shards as a Slurm job array, one shard a task: the batch script written
// into the campaign's folder (DIR/campaign.sbatch), submitted with sbatch,
// and waited for by reading the shards' files and asking squeue whether
// the job is still there. The folder and this program must be where the
// nodes see them (a shared file system).
#pragma once
#include <string>
#include <vector>

#include "stress/campaign/campaign_dir.hpp"
#include "tools/campaign/local_launcher.hpp"
#include "tools/campaign/campaign_progress.hpp"

namespace warpcheck::cli {

struct SlurmOptions {
  std::string sbatch_args;    // one #SBATCH line: --partition, --time, --gres=gpu:1, ...
  uint32_t max_parallel = 0;  // tasks at a time (the array's %M); 0: as many as Slurm runs
};

// "0-3,7,9-11%4": the shards as an array's task ids.
std::string array_spec(const std::vector<uint32_t>& shards, uint32_t max_parallel);

// The batch script: each task runs `WARPCHECK campaign --run-shard DIR
// $SLURM_ARRAY_TASK_ID`, its output into DIR/logs, and writes an exit note
// when it ends without its result. `dir` must be absolute.
std::string sbatch_script(const campaign::CampaignDir& dir, const std::string& warpcheck, const std::vector<uint32_t>& shards,
                          const SlurmOptions& options);

// Submits DIR/campaign.sbatch (sbatch --parsable) and records the job id
// in DIR/slurm-jobs.txt. Throws std::invalid_argument with sbatch's words.
std::string submit_job(const campaign::CampaignDir& dir);

// The job last submitted from DIR when squeue still lists it; empty otherwise.
std::string active_job(const campaign::CampaignDir& dir);

// Waits until each shard has its result or the job has left the queue, the
// deadline, or a stop signal (StopSignals). The job is left as it is: the
// caller cancels it on a stop signal (cancel_job), not at the deadline.
WaitEnd wait_for_job(const campaign::CampaignDir& dir, const std::string& job, const std::vector<uint32_t>& shards,
                     const WaitLimits& limits, CampaignProgress& progress);

// scancel JOB (every task of the array). Returns what went wrong; empty when it was cancelled.
std::string cancel_job(const std::string& job);

}  // namespace warpcheck::cli
