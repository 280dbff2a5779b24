#include "tools/campaign/campaign_progress.hpp"

#include <unistd.h>

namespace warpcheck::cli {

using namespace warpcheck::campaign;

CampaignProgress::CampaignProgress(const CampaignDir& dir, const CampaignPlan& plan, bool quiet, std::ostream& err)
    : dir_(dir), plan_(plan), quiet_(quiet), in_place_(::isatty(2)), err_(err) {
  seeds_at_start_ = read().seeds;
  start_ = last_ = std::chrono::steady_clock::now();
}

CampaignProgress::Totals CampaignProgress::read() {
  Totals t;
  for (uint32_t i = 0; i < plan_.shards.size(); ++i) {
    if (!finished_.count(i)) {
      // Only sound results count; the merge names a damaged one.
      if (ShardReading r = read_shard_result(dir_, plan_, i); r.result) finished_.emplace(i, std::move(*r.result));
    }
    if (const auto it = finished_.find(i); it != finished_.end()) {
      ++t.shards;
      t.seeds += it->second.seeds;
      t.failing += it->second.counts.failing_runs;
    } else if (const auto p = read_progress(dir_, i)) {
      t.seeds += p->done;
      t.failing += p->failures;
    }
  }
  return t;
}

void CampaignProgress::print(const Totals& t) {
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  err_ << (in_place_ ? "\r" : "") << "campaign: " << t.shards << "/" << plan_.shards.size() << " shards, " << t.seeds << "/"
       << plan_.seeds << " seeds, " << uint64_t(s > 0 && t.seeds > seeds_at_start_ ? double(t.seeds - seeds_at_start_) / s : 0) << " seeds/s, " << t.failing
       << " failing, " << int(s) << " s" << (in_place_ ? "   " : "\n") << std::flush;
  printed_ = true;
}

void CampaignProgress::tick() {
  if (quiet_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::seconds(in_place_ ? 1 : 10)) return;
  last_ = now;
  print(read());
}

void CampaignProgress::finish() {
  if (quiet_) return;
  print(read());
  if (in_place_) err_ << "\n";
}

}  // namespace warpcheck::cli
