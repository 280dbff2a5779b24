// A campaign folder read back: its plan, the shards that finished (their
// results summed) and those that did not, with why, from whatever is
// there. Any number of times, while shards run or after.
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
  std::string why;  // the exit note, or how far it got, or "not run"
};

// What a running shard last wrote of itself.
struct ShardProgress {
  uint64_t done = 0, failures = 0;
};
std::string progress_text(const ShardProgress& p);
std::optional<ShardProgress> read_progress(const CampaignDir& dir, uint32_t shard);

struct CampaignState {
  CampaignPlan plan;
  StressRequest request;                   // the run every shard does
  std::vector<ShardResult> finished;       // by shard
  std::vector<UnfinishedShard> unfinished; // by shard
  CampaignCounts total;                    // of the finished shards
  uint64_t seeds_finished() const;
  std::vector<uint32_t> unfinished_shards() const;
};

// The plan in `dir`; throws std::invalid_argument when there is none or it is damaged.
CampaignPlan read_plan(const CampaignDir& dir);

// Reads the plan and every shard's files. A result that is not the plan's
// shard (another range) throws std::invalid_argument.
CampaignState read_campaign(const Registry& registry, const CampaignDir& dir);

// 1: a failing run; else 2: a shard not finished or an undecided check; else 0.
int campaign_exit_code(const CampaignState& state);

}  // namespace warpcheck::campaign
