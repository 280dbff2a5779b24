// A campaign's pieces in process: seeds split into shards that tile the
// range; the plan and shard results written and read back (and damaged
// ones refused); shards run one by one whose merged counts are one run's;
// a folder read back with its unfinished shards and why.
#include <gtest/gtest.h>

#include <filesystem>

#include "stress/campaign/campaign_report.hpp"
#include "stress/campaign/campaign_state.hpp"
#include "stress/campaign/shard_run.hpp"
#include "support/temp_dir.hpp"

namespace warpcheck::campaign {
namespace {

StressRequest planted_bug(uint64_t seeds) {
  return request_from_flags(*registry().find("slabhash"), Backend::Sim,
                            "--mode map --mutant torn_read --seeds " + std::to_string(seeds) + " --seed 5");
}

CampaignDir fresh_dir(const std::string& name) { return {warpcheck::testing::fresh_temp_dir("campaign", name).string()}; }

TEST(Campaign, SeedsSplitIntoContiguousShardsThatDifferByOneSeedAtMost) {
  const auto shards = split_seeds(10, 7, 3);
  ASSERT_EQ(shards.size(), 3u);
  EXPECT_EQ(shards[0], (ShardRange{10, 3}));
  EXPECT_EQ(shards[1], (ShardRange{13, 2}));
  EXPECT_EQ(shards[2], (ShardRange{15, 2}));
  EXPECT_THROW(split_seeds(1, 3, 4), std::invalid_argument);
  EXPECT_THROW(split_seeds(1, 3, 0), std::invalid_argument);
}

TEST(Campaign, APlanReadsBackAsWrittenAndDamagedOnesAreRefused) {
  const CampaignPlan plan = make_plan(planted_bug(50), 4);
  const CampaignPlan back = parse_plan(plan_json(plan), "plan.json");
  EXPECT_TRUE(plan_differences(plan, back).empty());
  EXPECT_EQ(back.shards, plan.shards);
  EXPECT_EQ(back.first_seed, 5u);
  std::string text = plan_json(plan);
  text.replace(text.find("[5,13]"), 6, "[6,13]");
  EXPECT_THROW(parse_plan(text, "plan.json"), std::invalid_argument) << "shards that do not tile the range";
  EXPECT_THROW(parse_plan("{\"format\":\"something else\"}", "plan.json"), std::invalid_argument);
  EXPECT_THROW(parse_plan(plan_json(plan).substr(0, 40), "plan.json"), std::invalid_argument);
  // A campaign replays no workload or schedule of its own.
  StressRequest one = planted_bug(50);
  one.schedule = "wcs1:0";
  EXPECT_THROW(make_plan(one, 2), std::invalid_argument);
}

TEST(Campaign, PlansThatDifferSayWhere) {
  const CampaignPlan a = make_plan(planted_bug(50), 4);
  const CampaignPlan b = make_plan(request_from_flags(*registry().find("slabhash"), Backend::Sim, "--mode map --seeds 60 --seed 5"), 4);
  const auto d = plan_differences(a, b);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0], "--mutant: stored torn_read, asked none");
  EXPECT_EQ(d[1], "--seeds: stored 50, asked 60");
}

TEST(Campaign, ShardsRunOneByOneMergeToTheCountsOfOneRun) {
  const StressRequest request = planted_bug(60);
  const CampaignPlan plan = make_plan(request, 3);
  const StressRequest shard = shard_request(registry(), plan, "plan");
  CampaignCounts merged;
  std::vector<uint64_t> failing_seeds;
  for (uint32_t i = 0; i < 3; ++i) {
    const ShardResult r = run_shard(plan, shard, i, {});
    EXPECT_EQ(r.counts.runs, plan.shards[i].seeds);
    const ShardResult back = parse_shard_result(shard_result_json(r), "result");
    EXPECT_TRUE(back.counts.same_verdicts(r.counts));
    EXPECT_EQ(back.counts.run_us, r.counts.run_us);
    ASSERT_EQ(back.failures.size(), r.failures.size());
    for (const CampaignFailure& f : back.failures) failing_seeds.push_back(f.seed);
    merged += back.counts;
  }
  const SeedRunner runner(request);
  StressOptions all = runner.loop_options(5, 60);
  all.keep_going = true;
  std::vector<uint64_t> one_run_seeds;
  all.on_failure = [&](uint64_t seed, const SeedRun&, const CheckResult&) { one_run_seeds.push_back(seed); };
  const CampaignCounts one = counts_of(run_stress([&](uint64_t s) { return runner.run(s); }, all), runner.judges_points());
  EXPECT_TRUE(merged.same_verdicts(one)) << counts_json(merged) << "\n" << counts_json(one);
  EXPECT_GT(one.failing_runs, 0u) << "the planted bug shows in 60 seeds";
  EXPECT_EQ(failing_seeds, one_run_seeds);
  EXPECT_NE(replay_line(shard, 7).find("warpcheck repro 7 --structure slabhash --backend sim"), std::string::npos);
  EXPECT_NE(replay_line(shard, 7).find("--mutant torn_read"), std::string::npos);
}

TEST(Campaign, AFolderReadsBackWithItsUnfinishedShardsAndWhy) {
  const CampaignDir dir = fresh_dir("state");
  const CampaignPlan plan = make_plan(planted_bug(30), 3);
  create_campaign_dir(dir);
  write_atomically(dir.plan(), plan_json(plan));
  const StressRequest shard = shard_request(registry(), plan, "plan");
  write_atomically(dir.result(0), shard_result_json(run_shard(plan, shard, 0, {})));
  write_atomically(dir.exit_note(1), "killed by signal 9 (Killed)\n");
  const CampaignState s = read_campaign(registry(), dir);
  EXPECT_EQ(s.finished.size(), 1u);
  ASSERT_EQ(s.unfinished.size(), 2u);
  EXPECT_EQ(s.unfinished[0].why, "killed by signal 9 (Killed)");
  EXPECT_EQ(s.unfinished[1].why, "not run");
  EXPECT_EQ(s.unfinished_shards(), (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(campaign_exit_code(s), s.total.failing_runs ? 1 : 2);
  std::ostringstream report;
  write_report(s, {dir.root, SIZE_MAX, true}, report);
  EXPECT_NE(report.str().find("## Shards not finished: 2"), std::string::npos) << report.str();
  EXPECT_NE(report.str().find("`warpcheck campaign --resume " + dir.root + "`"), std::string::npos);

  // Progress of a running shard is shown until its result comes.
  write_atomically(dir.progress(2), progress_text({4, 1}));
  EXPECT_EQ(read_campaign(registry(), dir).unfinished[1].why, "no result yet: 4 of 10 seeds run when last heard of");
  forget_attempt(dir, 2);
  EXPECT_EQ(read_campaign(registry(), dir).unfinished[1].why, "not run");

  // A result that is not this plan's shard is refused, not merged.
  ShardResult stray = run_shard(plan, shard, 1, {});
  stray.first_seed += 1;
  write_atomically(dir.result(1), shard_result_json(stray));
  EXPECT_THROW(read_campaign(registry(), dir), std::invalid_argument);
  std::filesystem::remove_all(dir.root);
}

}  // namespace
}  // namespace warpcheck::campaign
