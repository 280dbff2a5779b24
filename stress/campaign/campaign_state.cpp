#include "stress/campaign/campaign_state.hpp"

#include <algorithm>
#include <cstdio>
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

std::vector<uint32_t> CampaignState::shards_to_run() const {
  std::vector<uint32_t> out;
  for (const UnfinishedShard& u : unfinished)
    if (!u.running) out.push_back(u.shard);
  return out;
}

ShardReading read_shard_result(const CampaignDir& dir, const CampaignPlan& plan, uint32_t shard) {
  ShardReading reading;
  const std::string path = dir.result(shard);
  try {
    const auto text = read_if_present(path);
    if (!text) return reading;
    ShardResult r = parse_shard_result(*text, path);
    if (const auto problem = shard_result_problem(r, shard, plan.shards.at(shard))) reading.problem = *problem;
    else reading.result = std::move(r);
  } catch (const std::invalid_argument& e) {  // unreadable, truncated, not JSON
    reading.problem = e.what();
    if (reading.problem.rfind(path + ": ", 0) == 0) reading.problem.erase(0, path.size() + 2);
  }
  return reading;
}

std::string set_aside_damaged_result(const CampaignDir& dir, const CampaignPlan& plan, uint32_t shard) {
  const ShardReading reading = read_shard_result(dir, plan, shard);
  if (reading.problem.empty()) return "";
  std::error_code e;
  std::filesystem::rename(dir.result(shard), dir.result(shard) + ".damaged", e);
  if (e) throw std::invalid_argument(dir.result(shard) + ": damaged (" + reading.problem + ") and cannot be set aside: " + e.message());
  return reading.problem;
}

namespace {

// A shard-NNNN.json of no shard of the plan (the plan has fewer) is never merged: said, not silently left.
void warn_of_stray_results(const CampaignDir& dir, const CampaignPlan& plan, std::vector<std::string>& warnings) {
  std::vector<std::string> stray;
  std::error_code e;
  for (const auto& entry : std::filesystem::directory_iterator(dir.shards(), e)) {
    const std::string name = entry.path().filename().string();
    unsigned shard = 0;
    int used = 0;
    if (std::sscanf(name.c_str(), "shard-%u.json%n", &shard, &used) == 1 && size_t(used) == name.size() && shard >= plan.shards.size())
      stray.push_back(dir.shards() + "/" + name + ": shard " + std::to_string(shard) + " is not in the plan (shards 0 to " +
                      std::to_string(plan.shards.size() - 1) + "); not merged");
  }
  std::sort(stray.begin(), stray.end());
  warnings.insert(warnings.end(), stray.begin(), stray.end());
}

}  // namespace

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
    ShardReading reading = read_shard_result(dir, s.plan, i);
    if (reading.result) {
      s.total += reading.result->counts;
      s.finished.push_back(std::move(*reading.result));
      continue;
    }
    UnfinishedShard u{i, range, "not run"};
    const auto progress = read_progress(dir, i);
    const std::string seeds_run =
        progress ? std::to_string(progress->done) + " of " + std::to_string(range.seeds) + " seeds run" : std::string();
    if (!reading.problem.empty())
      s.warnings.push_back(dir.result(i) + ": " + reading.problem + "; counted as not finished (--resume " + dir.root + " runs it again)");
    if (const auto holder = shard_lock_holder(dir, i)) {
      u.running = true;
      u.why = "running (" + *holder + ")" + (progress ? ", " + seeds_run : "");
    } else if (!reading.problem.empty()) {
      u.why = "result damaged: " + reading.problem;
    } else if (auto note = read_if_present(dir.exit_note(i))) {
      while (!note->empty() && note->back() == '\n') note->pop_back();
      u.why = *note;
    } else if (progress) {
      u.why = "no result yet: " + seeds_run + " when last heard of";
    }
    s.unfinished.push_back(std::move(u));
  }
  warn_of_stray_results(dir, s.plan, s.warnings);
  return s;
}

int campaign_exit_code(const CampaignState& s) {
  if (s.total.failing_runs) return 1;
  return !s.unfinished.empty() || s.total.unknown ? 2 : 0;
}

}  // namespace warpcheck::campaign
