#include "stress/campaign/shard_run.hpp"

#include <chrono>
#include <cstdlib>
#include <stdexcept>

#include "stress/campaign/campaign_dir.hpp"
#include "stress/run/stress_report.hpp"
#include "stress/run/stress_session.hpp"

namespace warpcheck::campaign {

namespace {

uint64_t unix_ms() {
  return uint64_t(std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count());
}

}  // namespace

ShardResult run_shard(const CampaignPlan& plan, const StressRequest& request, uint32_t shard,
                      const std::function<void(const StressProgress&)>& progress, const std::string& keep_dir) {
  if (shard >= plan.shards.size())
    throw std::invalid_argument("shard " + std::to_string(shard) + ": the plan has shards 0 to " + std::to_string(plan.shards.size() - 1));
  const ShardRange range = plan.shards[shard];
  ShardResult r;
  r.shard = shard;
  r.first_seed = range.first_seed;
  r.seeds = range.seeds;
  r.host = host_name();
  if (const char* d = std::getenv("CUDA_VISIBLE_DEVICES")) r.devices = d;
  r.started_ms = unix_ms();

  const SeedRunner runner(request);
  StressOptions loop = runner.loop_options(range.first_seed, range.seeds);
  loop.keep_going = true;  // a campaign counts every seed
  loop.progress = progress;
  loop.on_failure = [&r](uint64_t seed, const SeedRun& run, const CheckResult& check) {
    if (r.failures.size() < kMaxListedFailures) r.failures.push_back({seed, describe_failure(run, check)});
    else ++r.failures_not_listed;
  };
  if (!keep_dir.empty()) loop.on_run = run_keeper(keep_dir, request.options.text("keep"));
  const StressSummary sum = run_stress([&](uint64_t seed) { return runner.run(seed); }, loop);
  r.counts = counts_of(sum, runner.judges_points());
  r.finished_ms = unix_ms();
  return r;
}

}  // namespace warpcheck::campaign
