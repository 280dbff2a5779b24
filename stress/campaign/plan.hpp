// A campaign's plan: the run (the structure and every run option, as the
// histories store it), the checker's budget, the seed range and its split
// into shards. Written first into the campaign's folder; every shard, on
// any node, reads it and runs its range exactly as one process would.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "stress/run/stress_session.hpp"

namespace warpcheck::campaign {

struct ShardRange {
  uint64_t first_seed = 0, seeds = 0;
  bool operator==(const ShardRange&) const = default;
};

struct CampaignPlan {
  std::string configuration;                   // run_configuration's JSON, derived values (PCT's steps) included
  std::map<std::string, std::string> session;  // the session options shards honour: the checker's --timeout
  uint64_t first_seed = 1, seeds = 0;
  std::vector<ShardRange> shards;
};

// Seeds [first_seed, first_seed + seeds) in `shards` contiguous ranges as
// even as can be (the first seeds % shards ranges one seed longer).
std::vector<ShardRange> split_seeds(uint64_t first_seed, uint64_t seeds, uint32_t shards);

// The plan of a campaign over the request's --seed and --seeds in `shards`
// shards. The run's configuration is the one its runner derives from the
// first seed, so that a shard starting elsewhere runs the same schedules.
// Throws std::invalid_argument (a workload or schedule to replay, a range
// past the last seed, more shards than seeds).
CampaignPlan make_plan(const StressRequest& request, uint32_t shards);

std::string plan_json(const CampaignPlan& plan);
CampaignPlan parse_plan(const std::string& text, const std::string& where);  // throws std::invalid_argument

// How `asked` differs from `stored`, one phrase a difference; empty when they are the same campaign.
std::vector<std::string> plan_differences(const CampaignPlan& stored, const CampaignPlan& asked);

// The request every shard of the plan runs (every seed, no shrinking, quiet).
StressRequest shard_request(const Registry& registry, const CampaignPlan& plan, const std::string& where);
// "--structure S --backend sim ...": the run, as a command line says it.
std::string run_flags(const StressRequest& request);
// "warpcheck repro SEED --structure S ...": what reruns one seed of the campaign.
std::string replay_line(const StressRequest& request, uint64_t seed);

}  // namespace warpcheck::campaign
