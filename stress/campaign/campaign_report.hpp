// The merged report of a campaign: the counts summed over the finished
// shards (the table `warpcheck stress` prints), throughput, every failing
// seed with the line that replays it, and the shards not finished.
#pragma once
#include <ostream>

#include "stress/campaign/campaign_state.hpp"

namespace warpcheck::campaign {

struct ReportOptions {
  std::string folder;        // named in the resume line
  size_t failures = SIZE_MAX;  // failures listed (the report file lists all a shard keeps)
  bool per_shard = true;       // the table of every finished shard
};

void write_report(const CampaignState& state, const ReportOptions& options, std::ostream& out);

// The same totals as JSON (summary.json): counts, shards, failures with their replay lines.
std::string summary_json(const CampaignState& state);

}  // namespace warpcheck::campaign
