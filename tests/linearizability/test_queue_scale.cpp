// Queues at scale: a million operations with distinct values are decided
// by the distinct-value checker in one pass, linearizable or not, where the
// general search branches over the order of overlapping enqueues and meets
// a wrong choice only when the queue drains to it. The command-line timings
// are in bench/RESULTS.md ("The checker", "Issue 19: queue and stack models").
#include <gtest/gtest.h>

#include "linearizability/checker.hpp"
#include "linearizability/witness.hpp"
#include "linearizability/synthetic/synthetic_history.hpp"
#include "support/cross_check.hpp"

using namespace warpcheck;
using warpcheck::testing::decided_by_distinct_value_checker;

namespace {

History million_operation_queue(double pending) {
  const SyntheticHistorySpec spec{.model = ModelId::Queue, .operations = 1000000, .seed = 19, .overlap = 16, .pending = pending};
  return make_linearizable_history(spec);
}

}  // namespace

TEST(QueueScale, AMillionOperationsAreProvedInOneStepEach) {
  const History h = million_operation_queue(0.01);
  const CheckResult r = check_history(h);
  ASSERT_EQ(r.verdict, Verdict::Linearizable) << r.reason << " " << r.algorithm;
  EXPECT_TRUE(decided_by_distinct_value_checker(r, "queue")) << r.algorithm;
  EXPECT_LE(r.steps, h.ops.size());
  EXPECT_FALSE(witness_error(h, r.witness).has_value());
}

TEST(QueueScale, TwoSwappedResultsAmongAMillionAreRefutedOnAFewOperations) {
  History h = million_operation_queue(0);
  std::vector<size_t> dequeues;
  for (size_t i = 0; i < h.ops.size(); ++i)
    if (h.ops[i].data.kind == OpKind::Dequeue && h.ops[i].data.result_kind == ResultKind::Value) dequeues.push_back(i);
  ASSERT_GT(dequeues.size(), 1000u);
  // A quarter in, a dequeue returns a value enqueued three quarters in.
  std::swap(h.ops[dequeues[dequeues.size() / 4]].data.result, h.ops[dequeues[dequeues.size() * 3 / 4]].data.result);
  const CheckResult r = check_history(h);
  ASSERT_EQ(r.verdict, Verdict::Violation) << r.reason;
  EXPECT_TRUE(decided_by_distinct_value_checker(r, "queue")) << r.algorithm;
  ASSERT_TRUE(r.counterexample.has_value());
  EXPECT_TRUE(r.counterexample->minimal);
  EXPECT_LE(r.counterexample->history.ops.size(), 4u);
  EXPECT_EQ(check_history(r.counterexample->history, CheckOptions{.algorithm = Algorithm::Search}).verdict, Verdict::Violation);
}

TEST(QueueScale, TheDistinctValueCheckerHonoursTheBudgets) {
  const SyntheticHistorySpec spec{.model = ModelId::Queue, .operations = 200000};
  const History h = make_linearizable_history(spec);
  CheckOptions expired;
  expired.timeout_seconds = 1e-9;
  const CheckResult late = check_history(h, expired);
  EXPECT_EQ(late.verdict, Verdict::Unknown);
  EXPECT_NE(late.reason.find("time budget ran out in the distinct-value queue checker"), std::string::npos) << late.reason;
  CheckOptions no_memory;
  no_memory.resident_limit_bytes = 1;  // spent before the check starts
  const CheckResult full = check_history(h, no_memory);
  EXPECT_EQ(full.verdict, Verdict::Unknown);
  EXPECT_NE(full.reason.find("memory budget ran out in the distinct-value queue checker"), std::string::npos) << full.reason;
}
