// One shard of a campaign, run in this process: its seed range of the
// plan's run, every seed (no stop at a failure, no shrinking), each
// failing seed listed with what failed.
#pragma once
#include <functional>

#include "stress/campaign/plan.hpp"
#include "stress/campaign/shard_result.hpp"

namespace warpcheck::campaign {

// `request` is shard_request(plan); `progress` is called about once a second.
ShardResult run_shard(const CampaignPlan& plan, const StressRequest& request, uint32_t shard,
                      const std::function<void(const StressProgress&)>& progress);

}  // namespace warpcheck::campaign
