// The line a waiting campaign prints on stderr: shards finished, seeds
// run (running shards' progress included), seeds a second since this
// launch began, failing runs so far. Rewritten in place on a terminal,
// a new line every few seconds elsewhere (logs, CI).
#pragma once
#include <chrono>
#include <map>
#include <ostream>

#include "stress/campaign/campaign_state.hpp"

namespace warpcheck::cli {

class CampaignProgress {
 public:
  CampaignProgress(const campaign::CampaignDir& dir, const campaign::CampaignPlan& plan, bool quiet, std::ostream& err);
  void tick();    // prints when one is due
  void finish();  // the last line, ended

 private:
  struct Totals {
    uint64_t shards = 0, seeds = 0, failing = 0;
  };
  Totals read();
  void print(const Totals& t);

  const campaign::CampaignDir dir_;
  const campaign::CampaignPlan plan_;
  const bool quiet_, in_place_;
  std::ostream& err_;
  std::map<uint32_t, campaign::ShardResult> finished_;  // results do not change once written: read once
  uint64_t seeds_at_start_ = 0;
  std::chrono::steady_clock::time_point start_, last_;
  bool printed_ = false;
};

}  // namespace warpcheck::cli
