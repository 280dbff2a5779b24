// End to end on the simulator: the sorted-array set, written once on the
// team-and-memory layer, run under many seeds, recorded, checked; its
// planted bugs found, shrunk and replayed; the recorder's incompleteness.
#include <gtest/gtest.h>

#include "linearizability/checker.hpp"
#include "linearizability/formats.hpp"
#include "stress/sorted_set_target.hpp"

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

sim::SimConfig sim_for(const SortedSetConfig& c, uint64_t seed, sim::SchedulerKind k = sim::SchedulerKind::Random) {
  sim::SimConfig s;
  s.teams = c.teams;
  s.seed = seed;
  s.scheduler = k;
  s.pct_depth = 3;
  s.pct_steps = 100000;  // about one run's steps at this size (3 warps, 2 ops a lane)
  return s;
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
      const TargetRun run = run_sorted_set_sim(c, sim_for(c, seed, kind));
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
    TargetRun run = run_sorted_set_sim(c, sim_for(c, seed));
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
  const TargetRun again = run_sorted_set_sim(c, sim_for(c, found));
  EXPECT_EQ(again.report.schedule, failing.report.schedule);
  EXPECT_EQ(encode_binary(again.history), encode_binary(failing.history));
  // Replayed from the printed schedule alone.
  sim::SimConfig replay = sim_for(c, found);
  replay.replay = sim::encode_schedule(failing.report.schedule);
  const TargetRun from_schedule = run_sorted_set_sim(c, replay);
  ASSERT_TRUE(from_schedule.report.ok()) << from_schedule.report.message;
  EXPECT_EQ(encode_binary(from_schedule.history), encode_binary(failing.history));
  EXPECT_EQ(check_history(from_schedule.history).verdict, Verdict::Violation);
}

TEST(EndToEndSim, LeakedLockIsReportedWithItsOwnerAndPendingOperations) {
  const SortedSetConfig c = small_set(sorted_set_mutant::keep_lock_on_miss);
  sim::SimConfig s = sim_for(c, 1);
  s.spin_bound = 2000;
  const TargetRun run = run_sorted_set_sim(c, s);
  ASSERT_EQ(run.report.outcome, sim::Outcome::SpinBound) << run.report.message;
  EXPECT_NE(run.report.message.find("bucket locks[0]"), std::string::npos) << run.report.message;
  EXPECT_NE(run.report.details.find("held by team"), std::string::npos) << run.report.details;
  // The teams that were stuck have a begun, never-ended operation each.
  size_t pending = 0;
  for (const Operation& op : run.history.ops) pending += op.pending();
  EXPECT_GE(pending, 1u);
  EXPECT_LT(run.history.ops.size(), 3u * 32 * 2);
}

TEST(EndToEndSim, ATinyLogBufferMarksTheRunIncompleteNeverLinearizable) {
  SortedSetConfig c = small_set();
  c.log_capacity = 5;  // of 64 operations per team
  const TargetRun run = run_sorted_set_sim(c, sim_for(c, 7));
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
  EXPECT_THROW(run_sorted_set_sim(c, sim_for(c, 1)), std::invalid_argument);
  c = small_set();
  EXPECT_THROW(parse_sorted_set_mutant("no_such_mutant"), std::invalid_argument);
  sim::SimConfig wrong = sim_for(c, 1);
  wrong.teams = 2;
  EXPECT_THROW(run_sorted_set_sim(c, wrong), std::invalid_argument);
}

TEST(Recorder, MalformedRecordsAreRejected) {
  HostLog log(1, 2);
  log.counts[0] = 1;
  log.records[0] = log_record{};
  log.records[0].kind = 99;
  EXPECT_THROW(history_from_log(log, HistoryMeta{}), std::runtime_error);
  log.records[0].kind = static_cast<uint8_t>(OpKind::Insert);
  log.records[0].call = 10;
  log.records[0].ret = 5;  // answered before it was invoked
  log.records[0].result_kind = static_cast<uint8_t>(ResultKind::Bool);
  EXPECT_THROW(history_from_log(log, HistoryMeta{}), std::runtime_error);
  log.counts[0] = 3;  // past its capacity
  EXPECT_THROW(history_from_log(log, HistoryMeta{}), std::runtime_error);
}

}  // namespace
}  // namespace warpcheck

namespace warpcheck {
namespace {

// A one-lane team per register writer: each write is recorded with a
// linearization-point hint stamped at its store; the checker replays them.
TEST(Recorder, HintsTravelFromTheLogToTheChecker) {
  HostLog log(3, 4);
  sim::SimConfig c;
  c.teams = 3;
  c.lanes = 1;
  c.seed = 11;
  int64_t reg = 0;
  sim::Simulator simulator(c);
  const sim::RunReport r = simulator.run([&](sim::sim_team& t) {
    for (int i = 0; i < 4; ++i) {
      const int64_t v = int64_t(t.team_id()) * 100 + i + 1;
      const bool write = (i + t.team_id()) % 2 == 0;
      const uint32_t slot = log.view().begin(t, t.team_id(), write ? OpKind::Write : OpKind::Read, 0, write ? v : 0, 0, i);
      if (write) {
        t.store(&reg, v);
        log.view().hint(t, t.team_id(), slot);  // right after the store: where it takes effect
        log.view().end(t, t.team_id(), slot, ResultKind::None, 0);
      } else {
        const int64_t seen = t.load(&reg);
        log.view().hint(t, t.team_id(), slot);
        log.view().end(t, t.team_id(), slot, seen ? ResultKind::Value : ResultKind::Absent, seen);
      }
    }
  });
  ASSERT_TRUE(r.ok()) << r.message;
  HistoryMeta meta;
  meta.model = ModelId::Register;
  const History h = history_from_log(log, meta);
  ASSERT_EQ(h.ops.size(), 12u);
  for (const Operation& op : h.ops) {
    EXPECT_TRUE(op.has_hint);
    EXPECT_GE(op.hint, op.call);
    EXPECT_LE(op.hint, op.ret);
  }
  const CheckResult cr = check_history(h);
  EXPECT_EQ(cr.verdict, Verdict::Linearizable);
  ASSERT_TRUE(cr.hint_replay.has_value());
  EXPECT_EQ(cr.hint_replay->outcome, HintReplay::Outcome::Explained) << cr.hint_replay->detail;
}

}  // namespace
}  // namespace warpcheck
