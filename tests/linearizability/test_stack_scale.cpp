// Stacks at scale: a million operations with distinct values are decided
// by the distinct-value stack checker, where the general search branches
// over the order of overlapping pushes. A violation deep inside a stack
// that never empties is refuted on a few operations: the procedure's
// evidence (a whole part of the history) is cut down by projections
// before the search confirms it. The command-line timings are in
// bench/RESULTS.md ("The checker", "Issue 19, finished").
#include <gtest/gtest.h>

#include <unordered_map>

#include "linearizability/checker.hpp"
#include "linearizability/witness.hpp"
#include "linearizability/synthetic/synthetic_history.hpp"
#include "support/cross_check.hpp"

using namespace warpcheck;
using warpcheck::testing::decided_by_distinct_value_checker;

namespace {

History million_operation_stack() {
  const SyntheticHistorySpec spec{.model = ModelId::Stack, .operations = 1000000, .seed = 19, .overlap = 16};
  return make_linearizable_history(spec);
}

}  // namespace

TEST(StackScale, AMillionOperationsAreProvedInOneStepEach) {
  const History h = million_operation_stack();
  const CheckResult r = check_history(h);
  ASSERT_EQ(r.verdict, Verdict::Linearizable) << r.reason << " " << r.algorithm;
  EXPECT_TRUE(decided_by_distinct_value_checker(r, "stack")) << r.algorithm;
  EXPECT_LE(r.steps, h.ops.size());
  EXPECT_FALSE(witness_error(h, r.witness).has_value());
}

// Half-way in, pop A returned x and a later pop B returned y, y pushed
// before x and x pushed before A was invoked. Swapped, A takes y from under
// x, which is still there: a LIFO violation deep inside a stack that
// never empties.
TEST(StackScale, TwoSwappedResultsAmongAMillionAreRefutedOnAFewOperations) {
  History h = million_operation_stack();
  std::unordered_map<int64_t, size_t> push_of;
  for (size_t i = 0; i < h.ops.size(); ++i)
    if (h.ops[i].data.kind == OpKind::Push) push_of[h.ops[i].data.key] = i;
  auto is_pop = [&](size_t i) { return h.ops[i].data.kind == OpKind::Pop && h.ops[i].data.result_kind == ResultKind::Value; };
  std::vector<size_t> pops;
  for (size_t a = h.ops.size() / 2; a < h.ops.size() && pops.empty(); ++a) {
    if (!is_pop(a)) continue;
    const Operation& push_x = h.ops[push_of.at(h.ops[a].data.result)];
    if (push_x.ret >= h.ops[a].call) continue;
    for (size_t b = a + 1; b < std::min(h.ops.size(), a + 2000); ++b) {
      if (!is_pop(b) || h.ops[a].ret >= h.ops[b].call) continue;
      if (h.ops[push_of.at(h.ops[b].data.result)].ret < push_x.call) {
        pops = {a, b};
        break;
      }
    }
  }
  ASSERT_EQ(pops.size(), 2u);
  std::swap(h.ops[pops[0]].data.result, h.ops[pops[1]].data.result);
  const CheckResult r = check_history(h);
  ASSERT_EQ(r.verdict, Verdict::Violation) << r.reason;
  EXPECT_TRUE(decided_by_distinct_value_checker(r, "stack")) << r.algorithm;
  ASSERT_TRUE(r.counterexample.has_value());
  EXPECT_LE(r.counterexample->history.ops.size(), 8u);
  EXPECT_EQ(check_history(r.counterexample->history, CheckOptions{.algorithm = Algorithm::Search}).verdict, Verdict::Violation);
}
