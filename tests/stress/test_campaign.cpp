// A campaign's pieces in process: seeds split into shards that tile the
// range; the plan and shard results written and read back (and damaged
// ones refused); shards run one by one whose merged counts are one run's;
// a folder read back with its unfinished shards and why; hand-made shard
// results that do not add up counted as not finished, with a warning; a
// live shard's lock seen, and dropped when its process is killed.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <functional>

#include "stress/campaign/campaign_report.hpp"
#include "stress/campaign/campaign_state.hpp"
#include "stress/campaign/shard_run.hpp"
#include "support/temp_dir.hpp"

namespace warpcheck::campaign {
namespace {

StressRequest planted_bug(uint64_t seeds) {
  return request_from_flags(*registry().find("slab_hash"), Backend::Sim,
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
  const CampaignPlan b = make_plan(request_from_flags(*registry().find("slab_hash"), Backend::Sim, "--mode map --seeds 60 --seed 5"), 4);
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
  EXPECT_NE(replay_line(shard, 7).find("warpcheck repro 7 --structure slab_hash --backend sim"), std::string::npos);
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

  // A result that is not this plan's shard is not merged: the shard is not finished, and a warning says why.
  ShardResult stray = run_shard(plan, shard, 1, {});
  stray.first_seed += 1;
  write_atomically(dir.result(1), shard_result_json(stray));
  const CampaignState with_stray = read_campaign(registry(), dir);
  EXPECT_EQ(with_stray.finished.size(), 1u);
  ASSERT_EQ(with_stray.warnings.size(), 1u);
  EXPECT_NE(with_stray.warnings[0].find(dir.result(1) + ": seeds 16 to 25, but the plan's shard 1 has seeds 15 to 24"), std::string::npos)
      << with_stray.warnings[0];
  std::filesystem::remove_all(dir.root);
}

// A plan of 30 seeds from 5 in 3 shards (5-14, 15-24, 25-34), in a fresh folder.
struct HandMadeCampaign {
  CampaignDir dir;
  CampaignPlan plan;
  explicit HandMadeCampaign(const std::string& name) : dir(fresh_dir(name)), plan(make_plan(planted_bug(30), 3)) {
    create_campaign_dir(dir);
    write_atomically(dir.plan(), plan_json(plan));
  }
  ~HandMadeCampaign() { std::filesystem::remove_all(dir.root); }
  // Shard I's result as a shard writes it: every seed run, two of them violations, listed.
  ShardResult sound(uint32_t i) const {
    ShardResult r;
    r.shard = i;
    r.first_seed = plan.shards[i].first_seed;
    r.seeds = plan.shards[i].seeds;
    r.counts.runs = r.seeds;
    r.counts.linearizable = r.seeds - 2;
    r.counts.violations = r.counts.failing_runs = 2;
    r.failures = {{r.first_seed + 1, "VIOLATION"}, {r.first_seed + 3, "VIOLATION"}};
    r.started_ms = 1000;
    r.finished_ms = 2000;
    return r;
  }
};

TEST(Campaign, ShardResultsThatDoNotAddUpAreNotFinishedAndAWarningNamesTheFileAndWhy) {
  const HandMadeCampaign c("damaged");
  struct Case {
    const char* what;
    std::function<void(ShardResult&)> damage;
  };
  const std::vector<Case> cases = {
      {"800 runs of its 10 seeds", [](ShardResult& r) { r.counts.runs = 800, r.counts.linearizable = 5700; }},
      {"10 runs, but linearizable 5700", [](ShardResult& r) { r.counts.linearizable = 5700; }},
      {"10 runs, but LINEARIZABLE + VIOLATION + UNKNOWN = 11", [](ShardResult& r) { r.counts.unknown = 1; }},
      {"10 runs, but violations 18446744073709551615", [](ShardResult& r) { r.counts.violations = UINT64_MAX; }},  // no wrapped sum
      {"3 failing runs, but 2 listed with their seeds", [](ShardResult& r) { r.counts.failing_runs = 3, r.counts.faults = 1; }},
      {"2 failing runs, but 0 listed with their seeds", [](ShardResult& r) { r.failures.clear(); }},
      {"1 failing runs, fewer than its violations", [](ShardResult& r) { r.counts.failing_runs = 1, r.failures.pop_back(); }},
      {"failing seed 99 is outside its seeds 15 to 24", [](ShardResult& r) { r.failures[1].seed = 99; }},
      {"failing seed 16 listed twice", [](ShardResult& r) { r.failures[1].seed = 16; }},
      {"it says it is shard 7, in shard 1's file", [](ShardResult& r) { r.shard = 7; }},
      {"seeds 15 to 25, but the plan's shard 1 has seeds 15 to 24", [](ShardResult& r) { r.seeds = 11; }},
      {"it finished (500 ms) before it started", [](ShardResult& r) { r.finished_ms = 500; }},
      {"10 runs, but the proof's points were judged in 11", [](ShardResult& r) { r.counts.points_explained = 6, r.counts.points_not_explained = 5; }},
      {"1 failing runs not listed, with 2 listed", [](ShardResult& r) { ++r.failures_not_listed, ++r.counts.failing_runs, ++r.counts.faults; }},
  };
  write_atomically(c.dir.result(0), shard_result_json(c.sound(0)));
  write_atomically(c.dir.result(2), shard_result_json(c.sound(2)));
  for (const Case& k : cases) {
    ShardResult bad = c.sound(1);
    k.damage(bad);
    write_atomically(c.dir.result(1), shard_result_json(bad));
    const CampaignState s = read_campaign(registry(), c.dir);
    EXPECT_EQ(s.finished.size(), 2u) << k.what;
    EXPECT_EQ(s.total.runs, 20u) << k.what << ": the damaged shard's counts are not merged";
    ASSERT_EQ(s.unfinished.size(), 1u) << k.what;
    EXPECT_EQ(s.unfinished[0].why.rfind(std::string("result damaged: ") + k.what, 0), 0u) << s.unfinished[0].why;
    ASSERT_EQ(s.warnings.size(), 1u) << k.what;
    EXPECT_EQ(s.warnings[0].rfind(c.dir.result(1) + ": " + k.what, 0), 0u) << s.warnings[0];
    EXPECT_NE(s.warnings[0].find("counted as not finished (--resume " + c.dir.root + " runs it again)"), std::string::npos);
    EXPECT_EQ(s.shards_to_run(), (std::vector<uint32_t>{1})) << k.what;
    EXPECT_EQ(campaign_exit_code(s), 1) << "the sound shards' failing runs, and shard 1 not finished";
  }
  write_atomically(c.dir.result(1), shard_result_json(c.sound(1)));
  const CampaignState sound = read_campaign(registry(), c.dir);
  EXPECT_TRUE(sound.warnings.empty());
  EXPECT_EQ(sound.total.runs, 30u);
  EXPECT_EQ(sound.total.failing_runs, 6u);
}

TEST(Campaign, ACutShortShardResultIsSetAsideAndItsShardRunsAgain) {
  const HandMadeCampaign c("truncated");
  const std::string whole = shard_result_json(c.sound(2));
  write_atomically(c.dir.result(2), whole.substr(0, whole.size() / 2));
  const CampaignState s = read_campaign(registry(), c.dir);  // no throw: --merge, --status and --resume all read on
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_EQ(s.warnings[0].rfind(c.dir.result(2) + ": not a shard result: column ", 0), 0u) << s.warnings[0];
  EXPECT_EQ(s.unfinished_shards(), (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(s.unfinished[2].why.rfind("result damaged: not a shard result", 0), 0u) << s.unfinished[2].why;

  // Before the shard runs again: the damaged file moves aside, kept; a sound one stays.
  write_atomically(c.dir.result(0), shard_result_json(c.sound(0)));
  EXPECT_EQ(set_aside_damaged_result(c.dir, c.plan, 0), "");
  EXPECT_TRUE(std::filesystem::exists(c.dir.result(0)));
  EXPECT_EQ(set_aside_damaged_result(c.dir, c.plan, 2).rfind("not a shard result", 0), 0u);
  EXPECT_FALSE(std::filesystem::exists(c.dir.result(2)));
  EXPECT_TRUE(std::filesystem::exists(c.dir.result(2) + ".damaged"));
  const CampaignState after = read_campaign(registry(), c.dir);
  EXPECT_TRUE(after.warnings.empty());
  EXPECT_EQ(after.unfinished[1].why, "not run");

  // A result of no shard of the plan is said, and not merged.
  ShardResult past = c.sound(2);
  past.shard = 9;
  write_atomically(c.dir.result(9), shard_result_json(past));
  const CampaignState stray = read_campaign(registry(), c.dir);
  ASSERT_EQ(stray.warnings.size(), 1u);
  EXPECT_EQ(stray.warnings[0], c.dir.result(9) + ": shard 9 is not in the plan (shards 0 to 2); not merged");
  EXPECT_EQ(stray.finished.size(), 1u);
  std::string huge = shard_result_json(c.sound(1));
  huge.replace(huge.find("\"shard\":1"), 9, "\"shard\":4294967297");
  EXPECT_THROW(parse_shard_result(huge, "r"), std::invalid_argument) << "an index past 32 bits does not wrap to shard 1";
}

TEST(Campaign, ALiveShardHoldsItsLockAndTheKernelDropsItWhenItsProcessIsKilled) {
  const HandMadeCampaign c("lock");
  EXPECT_FALSE(shard_lock_holder(c.dir, 1)) << "never taken";
  {
    std::string holder;
    const auto lock = ShardLock::take(c.dir, 1, &holder);
    ASSERT_TRUE(lock);
    const auto seen = shard_lock_holder(c.dir, 1);
    ASSERT_TRUE(seen);
    EXPECT_EQ(*seen, "pid " + std::to_string(::getpid()) + " on " + host_name());
    EXPECT_FALSE(ShardLock::take(c.dir, 1, &holder)) << "one holder at a time";
    EXPECT_EQ(holder, *seen);
    // A running shard is shown so, and no resume starts it.
    write_atomically(c.dir.progress(1), progress_text({4, 0}));
    const CampaignState s = read_campaign(registry(), c.dir);
    ASSERT_EQ(s.unfinished.size(), 3u);
    EXPECT_TRUE(s.unfinished[1].running);
    EXPECT_EQ(s.unfinished[1].why, "running (" + *seen + "), 4 of 10 seeds run");
    EXPECT_EQ(s.shards_to_run(), (std::vector<uint32_t>{0, 2}));
  }
  EXPECT_FALSE(shard_lock_holder(c.dir, 1)) << "released with the lock";

  // Another process holds it, and is killed: the lock goes with it.
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::string holder;
    const auto lock = ShardLock::take(c.dir, 2, &holder);
    (void)!::write(ready[1], lock ? "y" : "n", 1);
    ::pause();
    ::_exit(0);
  }
  char taken = 0;
  ASSERT_EQ(::read(ready[0], &taken, 1), 1);
  EXPECT_EQ(taken, 'y');
  const auto seen = shard_lock_holder(c.dir, 2);
  ASSERT_TRUE(seen);
  EXPECT_EQ(*seen, "pid " + std::to_string(child) + " on " + host_name());
  EXPECT_FALSE(ShardLock::take(c.dir, 2, nullptr));
  ::kill(child, SIGKILL);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_FALSE(shard_lock_holder(c.dir, 2)) << "a killed shard holds nothing";
  EXPECT_TRUE(ShardLock::take(c.dir, 2, nullptr));
  ::close(ready[0]);
  ::close(ready[1]);
}

}  // namespace
}  // namespace warpcheck::campaign
