// Checker behaviour beyond verdicts: budgets give UNKNOWN with a reason,
// incomplete runs are never LINEARIZABLE, large histories get valid witnesses.
#include <gtest/gtest.h>

#include "linearizability/checker.hpp"
#include "linearizability/witness.hpp"
#include "linearizability/synthetic/synthetic_history.hpp"

using namespace warpcheck;

namespace {

// Many pending pushes on one queue: each may take effect anywhere, which
// makes the search exponential.
History hard_queue_history() {
  const SyntheticHistorySpec spec{.model = ModelId::PriorityQueue, .operations = 3000, .keys = 1000, .seed = 11, .overlap = 16,
                                  .pending = 0.3};
  return make_linearizable_history(spec);
}

}  // namespace

TEST(Checker, TimeBudgetGivesUnknownWithProgress) {
  CheckOptions opt;
  opt.timeout_seconds = 0.2;
  const CheckResult r = check_history(hard_queue_history(), opt);
  ASSERT_EQ(r.verdict, Verdict::Unknown);
  EXPECT_NE(r.reason.find("time budget ran out"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("longest partial linearization"), std::string::npos) << r.reason;
  EXPECT_GT(r.steps, 0u);
}

TEST(Checker, MemoryBudgetGivesUnknown) {
  CheckOptions opt;
  opt.memory_limit_bytes = 64 << 10;
  const CheckResult r = check_history(hard_queue_history(), opt);
  ASSERT_EQ(r.verdict, Verdict::Unknown);
  EXPECT_NE(r.reason.find("memory budget ran out"), std::string::npos) << r.reason;
}

TEST(Checker, IncompleteRunIsNeverLinearizable) {
  const SyntheticHistorySpec spec{.operations = 100};
  History h = make_linearizable_history(spec);
  h.meta.incomplete = true;
  const CheckResult r = check_history(h);
  EXPECT_EQ(r.verdict, Verdict::Unknown);
  ASSERT_TRUE(r.recorded_part.has_value());
  EXPECT_EQ(*r.recorded_part, Verdict::Linearizable);
  EXPECT_NE(r.reason.find("incomplete"), std::string::npos);
}

TEST(Checker, EmptyHistoryIsLinearizable) {
  History h;
  h.meta.model = ModelId::Map;
  const CheckResult r = check_history(h);
  EXPECT_EQ(r.verdict, Verdict::Linearizable);
  EXPECT_TRUE(r.witness.empty());
}

TEST(Checker, LargeHistoryGetsAValidWitnessAcrossParts) {
  const SyntheticHistorySpec spec{.operations = 200000, .keys = 5000, .overlap = 200, .pending = 0.001};
  const History h = make_linearizable_history(spec);
  const CheckResult r = check_history(h);
  ASSERT_EQ(r.verdict, Verdict::Linearizable) << r.reason;
  EXPECT_EQ(r.partitions, 5000u);
  EXPECT_FALSE(witness_error(h, r.witness).has_value());
}

TEST(Checker, OneWrongResultAmongManyKeysIsFound) {
  const SyntheticHistorySpec spec{.model = ModelId::Map, .operations = 50000, .keys = 2000, .overlap = 50};
  History h = make_linearizable_history(spec);
  // A find that returns a value nobody ever wrote.
  for (Operation& op : h.ops)
    if (op.data.kind == OpKind::Find && !op.pending() && op.call > 25000) {
      op.data.result_kind = ResultKind::Value;
      op.data.result = -1;
      const CheckResult r = check_history(h);
      ASSERT_EQ(r.verdict, Verdict::Violation);
      const Counterexample& cx = *r.counterexample;
      EXPECT_EQ(*cx.key, op.data.key);
      EXPECT_TRUE(cx.minimal);
      // The bad find, and only state-changing operations of its key before
      // it: those cannot be dropped without losing the evidence.
      ASSERT_FALSE(cx.history.ops.empty());
      EXPECT_EQ(cx.history.ops.back().id, op.id);
      for (size_t i = 0; i + 1 < cx.history.ops.size(); ++i) {
        EXPECT_FALSE(MapModel::leaves_state_unchanged(cx.history.ops[i].data));
        EXPECT_EQ(cx.history.ops[i].data.key, op.data.key);
      }
      return;
    }
  FAIL() << "no find in the generated history";
}

TEST(Witness, RejectsOrdersThatBreakRealTimeOrTheModel) {
  const SyntheticHistorySpec spec{.operations = 50, .overlap = 0};
  const History h = make_linearizable_history(spec);
  std::vector<uint32_t> order(h.ops.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  EXPECT_FALSE(witness_error(h, order).has_value());
  std::swap(order[0], order[49]);
  EXPECT_TRUE(witness_error(h, order).has_value());
  order.pop_back();
  EXPECT_TRUE(witness_error(h, order).has_value());
}

TEST(Checker, MemoryBudgetCountsTheStatesOwnHeap) {
  // A queue that only grows, searched by the plain search (which copies
  // states): every stored state holds the whole queue. The budget must see
  // that memory and stop the search, not the kernel.
  const SyntheticHistorySpec spec{.model = ModelId::PriorityQueue, .operations = 200000, .keys = 1000000000, .batch = 8,
                                  .warp_batch = 32};
  CheckOptions opt;
  opt.memory_limit_bytes = size_t(256) << 20;
  opt.prune = false;
  const CheckResult r = check_history(make_linearizable_history(spec), opt);
  ASSERT_EQ(r.verdict, Verdict::Unknown);
  EXPECT_NE(r.reason.find("memory budget ran out"), std::string::npos) << r.reason;
}
