// One shard of a campaign, run in this process: its seed range of the
// plan's run, every seed (no stop at a failure, no shrinking), each
// failing seed listed with what failed.
#pragma once
#include <functional>

#include "stress/campaign/plan.hpp"
#include "stress/campaign/shard_result.hpp"

namespace warpcheck::campaign {

// `request` is shard_request(plan); `progress` is called about once a
// second. The histories the request's --keep names (by default failing and
// undecided runs) go into `keep_dir` as seed-K-VERDICT.bin (none if empty).
ShardResult run_shard(const CampaignPlan& plan, const StressRequest& request, uint32_t shard,
                      const std::function<void(const StressProgress&)>& progress, const std::string& keep_dir = "");

}  // namespace warpcheck::campaign
