// A campaign folder read back: its plan, the shards that finished (their
// results summed) and those that did not, with why, from whatever is
// there. Any number of times, while shards run or after. A shard's result
// is merged only when it is whole and adds up (shard_result_problem); a
// damaged one makes its shard not finished, with a warning naming the file.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "stress/campaign/campaign_dir.hpp"
#include "stress/campaign/plan.hpp"
#include "stress/campaign/shard_result.hpp"

namespace warpcheck::campaign {

struct UnfinishedShard {
  uint32_t shard = 0;
  ShardRange range;
  std::string why;       // running, its result damaged, the exit note, how far it got, or "not run"
  bool running = false;  // a live process holds its lock: not to be started again
};

// What a running shard last wrote of itself.
struct ShardProgress {
  uint64_t done = 0, failures = 0;
};
std::string progress_text(const ShardProgress& p);
std::optional<ShardProgress> read_progress(const CampaignDir& dir, uint32_t shard);

// Shard I's result file read and checked against the plan: `result` when
// it is there and sound; `problem` (what is wrong with it: cut short, not
// adding up) when it is there and is not; neither when there is none.
struct ShardReading {
  std::optional<ShardResult> result;
  std::string problem;
};
ShardReading read_shard_result(const CampaignDir& dir, const CampaignPlan& plan, uint32_t shard);
// Before a shard runs again: its damaged result (if it has one) renamed to
// FILE.damaged, kept to look at and out of every reader's way. Returns
// what was wrong with it; empty when there was nothing to set aside.
std::string set_aside_damaged_result(const CampaignDir& dir, const CampaignPlan& plan, uint32_t shard);

struct CampaignState {
  CampaignPlan plan;
  StressRequest request;                   // the run every shard does
  std::vector<ShardResult> finished;       // by shard
  std::vector<UnfinishedShard> unfinished; // by shard
  CampaignCounts total;                    // of the finished shards
  // One line a file not merged: "FILE: what is wrong; ..." (a damaged
  // result, a result of no shard of the plan).
  std::vector<std::string> warnings;
  uint64_t seeds_finished() const;
  std::vector<uint32_t> unfinished_shards() const;
  std::vector<uint32_t> shards_to_run() const;  // the unfinished ones not running
};

// The plan in `dir`; throws std::invalid_argument when there is none or it is damaged.
CampaignPlan read_plan(const CampaignDir& dir);

// Reads the plan and every shard's files. Throws std::invalid_argument
// only for the plan (no plan, a damaged one): a damaged shard result is a
// warning and a shard not finished.
CampaignState read_campaign(const Registry& registry, const CampaignDir& dir);

// 1: a failing run; else 2: a shard not finished or an undecided check; else 0.
int campaign_exit_code(const CampaignState& state);

}  // namespace warpcheck::campaign
