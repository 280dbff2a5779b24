// Queues at scale: a million operations with distinct values are decided
// by the distinct-value checker in one pass, linearizable or not, where the
// general search branches over the order of overlapping enqueues and meets
// a wrong choice only when the queue drains to it. The command-line timings
// are in bench/RESULTS.md ("Issue 19").
#include <gtest/gtest.h>

#include "linearizability/checker.hpp"
#include "linearizability/witness.hpp"
#include "stress/synthetic_history.hpp"

using namespace warpcheck;

namespace {

History million_operation_queue(double pending) {
  SyntheticHistorySpec spec;
  spec.model = ModelId::Queue;
  spec.operations = 1000000;
  spec.overlap = 16;
  spec.pending = pending;
  spec.seed = 19;
  return make_linearizable_history(spec);
}

bool decided_by_the_distinct_value_checker(const CheckResult& r) {
  return r.algorithm.rfind("distinct-value queue checker", 0) == 0;
}

}  // namespace

TEST(QueueScale, AMillionOperationsAreProvedInOneStepEach) {
  const History h = million_operation_queue(0.01);
  const CheckResult r = check_history(h);
  ASSERT_EQ(r.verdict, Verdict::Linearizable) << r.reason << " " << r.algorithm;
  EXPECT_TRUE(decided_by_the_distinct_value_checker(r)) << r.algorithm;
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
  EXPECT_TRUE(decided_by_the_distinct_value_checker(r)) << r.algorithm;
  ASSERT_TRUE(r.counterexample.has_value());
  EXPECT_TRUE(r.counterexample->minimal);
  EXPECT_LE(r.counterexample->history.ops.size(), 4u);
  EXPECT_EQ(check_history(r.counterexample->history, CheckOptions{.algorithm = Algorithm::Search}).verdict, Verdict::Violation);
}
