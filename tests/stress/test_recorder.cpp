// The recorder's host side: device log records turned into a History, with
// malformed records refused, batches read as the model has them, and
// linearization-point hints carried to the checker.
#include <gtest/gtest.h>

#include "linearizability/checker.hpp"
#include "stress/recorder/batch_history.hpp"
#include "stress/recorder/recorded_history.hpp"
#include "structures/core/sim/sim_team.hpp"

namespace warpcheck {
namespace {

// Batch recordings (core::run_team_bulk): every operation of a warp's batch
// gets the batch's interval; not done, or no ret: pending; no call: never
// began. One warp of K = 1 a launch here (32 operations, lane = index).
TEST(Recorder, BatchLaunchesJoinTheirInputs) {
  HostLog log(2, 64);
  std::vector<uint64_t> stamps{10, 20, batch_log::kNoStamp, batch_log::kNoStamp};  // team 1 never began
  std::vector<uint64_t> results(64, 0);
  for (int i = 0; i < 32; ++i) results[i] = batch_log::result_word(ResultKind::Value, 100 + i);
  results[5] = 0;  // lane 5 did not finish
  auto input = [](uint64_t i) { return core::workload_op{int64_t(i), int64_t(i + 1), OpKind::Find, true}; };
  EXPECT_EQ(append_batch_launch(log, {1, 64, stamps.data(), results.data()}, input), 32u);
  ASSERT_EQ(log.counts[0], 32u);
  ASSERT_EQ(log.counts[1], 0u);
  const log_record& r7 = log.records[7];
  EXPECT_EQ(r7.call, 10u);
  EXPECT_EQ(r7.ret, 20u);
  EXPECT_EQ(r7.key, 7);
  EXPECT_EQ(r7.lane, 7u);
  EXPECT_EQ(r7.result, 107);
  EXPECT_EQ(r7.result_kind, static_cast<uint8_t>(ResultKind::Value));
  EXPECT_EQ(log.records[5].ret, kLogPending);
  stamps = {30, batch_log::kNoStamp, 0, 0};  // a second launch: team 0 began, never ended
  EXPECT_EQ(append_batch_launch(log, {1, 32, stamps.data(), results.data()}, input), 32u);
  EXPECT_EQ(log.records[32 + 7].ret, kLogPending);
  EXPECT_EQ(log.records[32 + 7].call, 30u);
  // Past the stream's capacity: lost, and the history incomplete.
  EXPECT_EQ(append_batch_launch(log, {1, 32, stamps.data(), results.data()}, input), 0u);
  EXPECT_EQ(log.lost[0], 32u);
}

// Wider intervals still separate batches in time: a search in a later
// batch that misses a key an earlier batch inserted is a violation.
TEST(Recorder, BatchIntervalsStillOrderBatches) {
  auto history = [](ResultKind search_kind) {
    HostLog log(1, 64);
    std::vector<uint64_t> stamps{10, 20}, results(32, batch_log::result_word(ResultKind::None, 0));
    append_batch_launch(log, {1, 32, stamps.data(), results.data()}, [](uint64_t i) {
      return core::workload_op{int64_t(i), int64_t(i + 1), OpKind::Upsert, true};
    });
    stamps = {30, 40};
    for (int i = 0; i < 32; ++i) results[i] = batch_log::result_word(search_kind, search_kind == ResultKind::Value ? i + 1 : 0);
    append_batch_launch(log, {1, 32, stamps.data(), results.data()}, [](uint64_t i) {
      return core::workload_op{int64_t(i), 0, OpKind::Find, true};
    });
    HistoryMeta meta;
    meta.model = ModelId::Map;
    return history_from_log(log, meta);
  };
  EXPECT_EQ(check_history(history(ResultKind::Value)).verdict, Verdict::Linearizable);
  EXPECT_EQ(check_history(history(ResultKind::Absent)).verdict, Verdict::Violation);
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

// Which records carry batches is the model's to say: a stack's push and
// pop carry one value (no key buffer), a queue's batched enqueue and
// dequeue name ranges of it, as a priority queue's push and pop do.
TEST(Recorder, BatchesAreReadByTheModel) {
  HostLog log(1, 4, 8);
  sim::SimConfig c;
  c.teams = 1;
  c.lanes = 1;
  {
    sim::Simulator simulator(c);
    ASSERT_TRUE(simulator.run([&](sim::sim_team& t) {
      const history_log& v = log.view();
      uint32_t slot = v.begin(t, 0, OpKind::Push, 7, 0, 0, 0);
      v.end(t, 0, slot, ResultKind::None, 0);
      slot = v.begin(t, 0, OpKind::Pop, 0, 0, 0, 0);
      v.end(t, 0, slot, ResultKind::Value, 7);
    }).ok());
  }
  HistoryMeta meta;
  meta.model = ModelId::Stack;
  const History stack = history_from_log(log, meta);
  ASSERT_EQ(stack.ops.size(), 2u);
  EXPECT_EQ(stack.ops[0].data.key, 7);
  EXPECT_EQ(stack.ops[1].data.result, 7);
  EXPECT_EQ(check_history(stack).verdict, Verdict::Linearizable);

  HostLog batches(1, 4, 8);
  {
    sim::Simulator simulator(c);
    ASSERT_TRUE(simulator.run([&](sim::sim_team& t) {
      const history_log& v = batches.view();
      uint32_t slot = v.begin(t, 0, OpKind::EnqueueBatch, 0, 0, 0, 0);
      uint32_t at = v.reserve_keys(0, 3);
      for (int i = 0; i < 3; ++i) v.key_at(0, at)[i] = 10 + i;
      v.batch_in(0, slot, at, 3);
      v.end(t, 0, slot, ResultKind::None, 0);
      slot = v.begin(t, 0, OpKind::DequeueBatch, 0, 2, 0, 0);  // asks for 2
      at = v.reserve_keys(0, 2);
      v.key_at(0, at)[0] = 10;
      v.key_at(0, at)[1] = 11;
      v.batch_out(0, slot, at, 2);
      v.end(t, 0, slot, ResultKind::Keys, 2);
    }).ok());
  }
  meta.model = ModelId::Queue;
  const History queue = history_from_log(batches, meta);
  ASSERT_EQ(queue.ops.size(), 2u);
  EXPECT_EQ(std::vector<int64_t>(queue.pushed_keys(queue.ops[0]).begin(), queue.pushed_keys(queue.ops[0]).end()),
            (std::vector<int64_t>{10, 11, 12}));
  EXPECT_EQ(queue.ops[1].data.value, 2);
  EXPECT_EQ(std::vector<int64_t>(queue.popped_keys(queue.ops[1]).begin(), queue.popped_keys(queue.ops[1]).end()),
            (std::vector<int64_t>{10, 11}));
  EXPECT_EQ(check_history(queue).verdict, Verdict::Linearizable);

  meta.model = ModelId::Set;  // a stack's records are no set's operations
  try {
    history_from_log(log, meta);
    ADD_FAILURE() << "a push was read as a set operation";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("stream 0 record 0 is a push, not an operation of model set"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace warpcheck
