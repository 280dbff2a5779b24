// The recorder's host side: device log records turned into a History, with
// malformed records refused and linearization-point hints carried to the
// checker.
#include <gtest/gtest.h>

#include "linearizability/checker.hpp"
#include "stress/harness/recorded_history.hpp"
#include "structures/core/sim/sim_team.hpp"

namespace warpcheck {
namespace {

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
        t.store(&reg, v, core::order::relaxed, core::scope::gpu);
        log.view().hint(t, t.team_id(), slot);  // right after the store: where it takes effect
        log.view().end(t, t.team_id(), slot, ResultKind::None, 0);
      } else {
        const int64_t seen = t.load(&reg, core::order::relaxed, core::scope::gpu);
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

// Writers and readers of one register, each operation recorded; relaxed
// memory. With the fence before the response stamp, an operation that
// starts after another ended sees its writes; stamped before the fence (the
// planted recorder bug), it may not, and the checker says so.
uint64_t register_violations(bool stamps_before_fence, uint64_t seeds) {
  uint64_t violations = 0;
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    HostLog log(3, 6);
    log.view().stamps_before_fence = stamps_before_fence;
    sim::SimConfig c;
    c.teams = 3;
    c.lanes = 1;
    c.seed = seed;
    c.memory_model = sim::MemoryModel::relaxed;
    int64_t reg = 0;
    sim::Simulator simulator(c);
    const sim::RunReport r = simulator.run([&](sim::sim_team& t) {
      for (int i = 0; i < 6; ++i) {
        const bool write = t.team_id() == 0;
        const int64_t v = i + 1;
        const uint32_t slot = log.view().begin(t, t.team_id(), write ? OpKind::Write : OpKind::Read, 0, write ? v : 0, 0, i);
        if (write) {
          t.store(&reg, v, core::order::relaxed, core::scope::gpu);
          log.view().end(t, t.team_id(), slot, ResultKind::None, 0);
        } else {
          const int64_t seen = t.load(&reg, core::order::relaxed, core::scope::gpu);
          log.view().end(t, t.team_id(), slot, seen ? ResultKind::Value : ResultKind::Absent, seen);
        }
      }
    });
    EXPECT_TRUE(r.ok()) << r.message;
    HistoryMeta meta;
    meta.model = ModelId::Register;
    violations += check_history(history_from_log(log, meta)).verdict == Verdict::Violation;
  }
  return violations;
}

TEST(Recorder, AResponseStampedBeforeItsFenceIsCaughtInRelaxedMemory) {
  EXPECT_EQ(register_violations(false, 400), 0u) << "the recorder as it is: every history linearizable";
  const uint64_t caught = register_violations(true, 400);
  EXPECT_GT(caught, 0u) << "the planted recorder bug was never caught";
  RecordProperty("violations_of_400", std::to_string(caught));
}

}  // namespace
}  // namespace warpcheck
