#include "stress/campaign/campaign_state.hpp"

#include <filesystem>
#include <sstream>
#include <stdexcept>

namespace warpcheck::campaign {

std::string progress_text(const ShardProgress& p) {
  return std::to_string(p.done) + " " + std::to_string(p.failures) + "\n";
}

std::optional<ShardProgress> read_progress(const CampaignDir& dir, uint32_t shard) {
  const auto text = read_if_present(dir.progress(shard));
  if (!text) return std::nullopt;
  std::istringstream in(*text);
  ShardProgress p;
  if (!(in >> p.done >> p.failures)) return std::nullopt;  // written whole, so only a foreign file reads wrong
  return p;
}

uint64_t CampaignState::seeds_finished() const {
  uint64_t n = 0;
  for (const ShardResult& r : finished) n += r.seeds;
  return n;
}

std::vector<uint32_t> CampaignState::unfinished_shards() const {
  std::vector<uint32_t> out;
  for (const UnfinishedShard& u : unfinished) out.push_back(u.shard);
  return out;
}

CampaignPlan read_plan(const CampaignDir& dir) {
  if (!std::filesystem::is_directory(dir.root)) throw std::invalid_argument(dir.root + ": no such campaign folder");
  const auto text = read_if_present(dir.plan());
  if (!text) throw std::invalid_argument(dir.root + ": not a campaign folder (no plan.json)");
  return parse_plan(*text, dir.plan());
}

CampaignState read_campaign(const Registry& registry, const CampaignDir& dir) {
  CampaignState s;
  s.plan = read_plan(dir);
  s.request = shard_request(registry, s.plan, dir.plan());
  for (uint32_t i = 0; i < s.plan.shards.size(); ++i) {
    const ShardRange& range = s.plan.shards[i];
    if (const auto text = read_if_present(dir.result(i))) {
      ShardResult r = parse_shard_result(*text, dir.result(i));
      if (r.shard != i || r.first_seed != range.first_seed || r.seeds != range.seeds || r.counts.runs != range.seeds)
        throw std::invalid_argument(dir.result(i) + ": not this plan's shard " + std::to_string(i) + " (seeds " +
                                    std::to_string(range.first_seed) + " to " + std::to_string(range.first_seed + range.seeds - 1) + ")");
      s.total += r.counts;
      s.finished.push_back(std::move(r));
      continue;
    }
    UnfinishedShard u{i, range, "not run"};
    if (const auto note = read_if_present(dir.exit_note(i))) {
      u.why = *note;
      while (!u.why.empty() && u.why.back() == '\n') u.why.pop_back();
    } else if (const auto p = read_progress(dir, i)) {
      u.why = "no result yet: " + std::to_string(p->done) + " of " + std::to_string(range.seeds) + " seeds run when last heard of";
    }
    s.unfinished.push_back(std::move(u));
  }
  return s;
}

int campaign_exit_code(const CampaignState& s) {
  if (s.total.failing_runs) return 1;
  return !s.unfinished.empty() || s.total.unknown ? 2 : 0;
}

}  // namespace warpcheck::campaign
