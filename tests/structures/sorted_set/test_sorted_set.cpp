// End to end on the simulator: the sorted-array set, written once on the
// team-and-memory layer, run under many seeds, recorded, checked; its
// planted bugs found, shrunk and replayed; the recorder's incompleteness.
#include <gtest/gtest.h>

#include "linearizability/checker.hpp"
#include "linearizability/formats.hpp"
#include "stress/seam/registry.hpp"
#include "stress/sorted_set/config.hpp"
#include "stress/run/stress_session.hpp"
#include "support/sim_for.hpp"

namespace warpcheck {
namespace {

using structures::sorted_set_mutant;

SortedSetConfig small_set(sorted_set_mutant m = sorted_set_mutant::none) {
  SortedSetConfig c;
  c.teams = 3;
  c.ops_per_lane = 2;
  c.keys = 8;
  c.buckets = 1;
  c.mutant = m;
  return c;
}

using test::sim_for;

test::SimShape sim_shape(const SortedSetConfig& c) {
  return {.teams = c.teams, .pct_steps = 100000, .pct_depth = 3};  // k: about one run's steps at this size (3 warps, 2 ops a lane)
}

// Whether some two operations of different teams overlap in time.
bool has_concurrency(const History& h) {
  for (const Operation& a : h.ops)
    for (const Operation& b : h.ops)
      if (a.team != b.team && a.call < b.ret && b.call < a.ret) return true;
  return false;
}

TEST(EndToEndSim, CorrectSetIsLinearizableUnderEverySeed) {
  const SortedSetConfig c = small_set();
  int concurrent = 0;
  for (auto kind : {sim::SchedulerKind::Random, sim::SchedulerKind::Pct}) {
    for (uint64_t seed = 1; seed <= 60; ++seed) {
      const TargetRun run = run_sorted_set_sim(c, sim_for(sim_shape(c), seed, kind));
      ASSERT_TRUE(run.report.ok()) << "seed " << seed << ": " << run.report.message << "\n" << run.report.details;
      ASSERT_EQ(run.history.ops.size(), 3u * 32 * 2);
      ASSERT_FALSE(run.history.meta.incomplete);
      const CheckResult r = check_history(run.history);
      ASSERT_EQ(r.verdict, Verdict::Linearizable) << "seed " << seed << ": " << r.reason;
      concurrent += has_concurrency(run.history);
    }
  }
  EXPECT_GT(concurrent, 100) << "the runs barely overlapped: the test would not see a concurrency bug";
}

TEST(EndToEndSim, UnlockedContainsIsFoundShrunkAndReplayed) {
  const SortedSetConfig c = small_set(sorted_set_mutant::unlocked_contains);
  uint64_t found = 0;
  TargetRun failing;
  CheckResult verdict;
  for (uint64_t seed = 1; seed <= 50 && !found; ++seed) {
    TargetRun run = run_sorted_set_sim(c, sim_for(sim_shape(c), seed));
    ASSERT_TRUE(run.report.ok()) << run.report.message;
    CheckResult r = check_history(run.history);
    if (r.verdict == Verdict::Violation) {
      found = seed;
      failing = std::move(run);
      verdict = std::move(r);
    }
  }
  ASSERT_GT(found, 0u) << "the mutant survived 50 seeds";
  // Shrunk: a minimal refuted sub-history of a few operations on one key.
  ASSERT_TRUE(verdict.counterexample.has_value());
  const Counterexample& cx = *verdict.counterexample;
  EXPECT_TRUE(cx.minimal);
  EXPECT_TRUE(cx.key.has_value());
  EXPECT_LE(cx.history.ops.size(), 6u) << "shrunk from " << cx.shrunk_from;
  bool has_contains_false = false;
  for (const Operation& op : cx.history.ops)
    has_contains_false |= op.data.kind == OpKind::Contains && op.data.result == 0;
  EXPECT_TRUE(has_contains_false) << "the witness of a missed key is a contains that answered false";

  // Replayed from its seed: the same schedule and the same history, bit for bit.
  const TargetRun again = run_sorted_set_sim(c, sim_for(sim_shape(c), found));
  EXPECT_EQ(again.report.schedule, failing.report.schedule);
  EXPECT_EQ(encode_binary(again.history), encode_binary(failing.history));
  // Replayed from the printed schedule alone.
  sim::SimConfig replay = sim_for(sim_shape(c), found);
  replay.replay = sim::encode_schedule(failing.report.schedule);
  const TargetRun from_schedule = run_sorted_set_sim(c, replay);
  ASSERT_TRUE(from_schedule.report.ok()) << from_schedule.report.message;
  EXPECT_EQ(encode_binary(from_schedule.history), encode_binary(failing.history));
  EXPECT_EQ(check_history(from_schedule.history).verdict, Verdict::Violation);
}

TEST(EndToEndSim, LeakedLockIsReportedWithItsOwnerAndPendingOperations) {
  const SortedSetConfig c = small_set(sorted_set_mutant::keep_lock_on_miss);
  sim::SimConfig s = sim_for(sim_shape(c), 1);
  s.spin_bound = 2000;
  const TargetRun run = run_sorted_set_sim(c, s);
  ASSERT_EQ(run.report.outcome, sim::Outcome::SpinBound) << run.report.message;
  EXPECT_NE(run.report.message.find("bucket locks[0]"), std::string::npos) << run.report.message;
  EXPECT_NE(run.report.details.find("held by warp"), std::string::npos) << run.report.details;
  // The teams that were stuck have a begun, never-ended operation each.
  size_t pending = 0;
  for (const Operation& op : run.history.ops) pending += op.pending();
  EXPECT_GE(pending, 1u);
  EXPECT_LT(run.history.ops.size(), 3u * 32 * 2);
}

TEST(EndToEndSim, ATinyLogBufferMarksTheRunIncompleteNeverLinearizable) {
  SortedSetConfig c = small_set();
  c.log_capacity = 5;  // of 64 operations per team
  const TargetRun run = run_sorted_set_sim(c, sim_for(sim_shape(c), 7));
  ASSERT_TRUE(run.report.ok());
  EXPECT_TRUE(run.history.meta.incomplete);
  EXPECT_EQ(run.history.ops.size(), 3u * 5);
  const CheckResult r = check_history(run.history);
  EXPECT_EQ(r.verdict, Verdict::Unknown);
  EXPECT_NE(r.reason.find("incomplete"), std::string::npos) << r.reason;
}

TEST(EndToEndSim, ImpossibleConfigurationsAreRejected) {
  SortedSetConfig c = small_set();
  c.keys = 33;  // one bucket holds 32
  EXPECT_THROW(run_sorted_set_sim(c, sim_for(sim_shape(c), 1)), std::invalid_argument);
  c = small_set();
  EXPECT_THROW(request_from_flags(*registry().find("sorted_set"), Backend::Sim, "--mutant no_such_mutant"), std::invalid_argument);
  sim::SimConfig wrong = sim_for(sim_shape(c), 1);
  wrong.teams = 2;
  EXPECT_THROW(run_sorted_set_sim(c, wrong), std::invalid_argument);
}

}  // namespace
}  // namespace warpcheck
