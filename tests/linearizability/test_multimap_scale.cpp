// Multimaps at scale: a million operations with a value of their own per
// insert, 1% of them pending, are decided key by key by the distinct-value
// multimap checker, where the general search ends at its budget (pending
// erases may have removed any live value). An absent answer planted where
// a value is surely live is refuted on a few operations. The command-line
// timings are in bench/RESULTS.md ("The checker", "Issue 15: a
// distinct-value multimap checker").
#include <gtest/gtest.h>

#include <unordered_map>

#include "linearizability/checker.hpp"
#include "linearizability/witness.hpp"
#include "linearizability/synthetic/synthetic_history.hpp"
#include "support/cross_check.hpp"

using namespace warpcheck;
using warpcheck::testing::decided_by_distinct_value_checker;

namespace {

History million_operation_multimap(double pending) {
  const SyntheticHistorySpec spec{.model = ModelId::Multimap, .operations = 1000000, .keys = 64, .seed = 15, .overlap = 64,
                                  .pending = pending};
  return make_linearizable_history(spec);
}

}  // namespace

TEST(MultimapScale, AMillionOperationsWithPendingOnesAreProvedKeyByKey) {
  const History h = million_operation_multimap(0.01);
  const CheckResult r = check_history(h);
  ASSERT_EQ(r.verdict, Verdict::Linearizable) << r.reason << " " << r.algorithm;
  EXPECT_TRUE(decided_by_distinct_value_checker(r, "multimap")) << r.algorithm;
  EXPECT_EQ(r.partitions, 64u);
  EXPECT_FALSE(witness_error(h, r.witness).has_value());
}

// Half-way in, value v is inserted and erased far apart, so it is surely
// live between the insert's response and the erase's invocation; a find
// of the same key that lies inside that stretch is made to answer absent.
TEST(MultimapScale, AnAbsentAnswerWhileAValueIsSurelyLiveIsRefutedOnAFewOperations) {
  History h = million_operation_multimap(0);
  std::unordered_map<int64_t, size_t> insert_of;
  for (size_t i = 0; i < h.ops.size(); ++i)
    if (h.ops[i].data.kind == OpKind::Insert) insert_of[h.ops[i].data.value] = i;
  std::optional<size_t> planted;
  for (size_t e = h.ops.size() / 2; e < h.ops.size() && !planted; ++e) {
    const OpData& d = h.ops[e].data;
    if (d.kind != OpKind::Erase || d.result_kind != ResultKind::Value) continue;
    const Operation& insert = h.ops[insert_of.at(d.result)];
    for (size_t f = insert_of.at(d.result) + 1; f < e && !planted; ++f) {
      const Operation& find = h.ops[f];
      if (find.data.kind == OpKind::Find && find.data.key == d.key && !find.pending() && insert.ret < find.call &&
          find.ret < h.ops[e].call)
        planted = f;
    }
  }
  ASSERT_TRUE(planted.has_value());
  h.ops[*planted].data.result_kind = ResultKind::Absent;
  h.ops[*planted].data.result = 0;
  const CheckResult r = check_history(h);
  ASSERT_EQ(r.verdict, Verdict::Violation) << r.reason;
  EXPECT_TRUE(decided_by_distinct_value_checker(r, "multimap")) << r.algorithm;
  ASSERT_TRUE(r.counterexample.has_value());
  EXPECT_EQ(r.counterexample->key, h.ops[*planted].data.key);
  EXPECT_LE(r.counterexample->history.ops.size(), 4u);
  EXPECT_EQ(check_history(r.counterexample->history, CheckOptions{.algorithm = Algorithm::Search}).verdict, Verdict::Violation);
}
