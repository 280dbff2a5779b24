// The set presence procedure (set_presence.hpp) against the brute-force
// oracle: whatever it proves is linearizable with a witness that replays,
// on random and near-miss histories of one hot key and of several; on
// histories linearizable by construction, heavily overlapping, it decides
// nearly all (the rest go to the search, which the whole check's answer
// shows); and one key of 10^5 operations at overlap 4,096 is proved
// without the search.
#include <gtest/gtest.h>

#include "linearizability/checker.hpp"
#include "linearizability/set_presence.hpp"
#include "linearizability/witness.hpp"
#include "linearizability/synthetic/synthetic_history.hpp"
#include "support/brute_force_oracle.hpp"
#include "support/property.hpp"
#include "support/random_histories.hpp"

using namespace warpcheck;
using namespace warpcheck::testing;

namespace {

using Outcome = DistinctValueCheck::Outcome;

// Proved only what the oracle proves, with a witness that replays; never
// anything but proved or undecided; the whole check equals the oracle.
void expect_sound(const History& h) {
  const bool expected = brute_force_linearizable(h);
  const DistinctValueCheck fast = check_set_presence(h);
  RC_TAG(expected ? "linearizable" : "violation", fast.outcome == Outcome::Linearizable ? "proved" : "to the search");
  RC_ASSERT(fast.outcome == Outcome::Linearizable || fast.outcome == Outcome::Undecided);
  if (fast.outcome == Outcome::Linearizable) {
    RC_ASSERT(expected);
    RC_ASSERT(!witness_error(h, fast.order).has_value());
  }
  CheckOptions opt;
  opt.threads = 1;
  RC_ASSERT((check_history(h, opt).verdict == Verdict::Linearizable) == expected);
}

History hot_key(History h) {
  for (Operation& op : h.ops) op.data.key = 0;
  return h;
}

SyntheticHistorySpec overlapping_set(size_t ops, uint64_t overlap, double pending) {
  SyntheticHistorySpec spec;
  spec.model = ModelId::Set;
  spec.operations = ops;
  spec.keys = 1;
  spec.overlap = overlap;
  spec.pending = pending;
  return spec;
}

}  // namespace

WC_PROP(SetPresence, RandomHistoriesAgreeWithTheOracle, 20000, ()) {
  History h = random_history(ModelId::Set, 12, 3);
  if (*rc::gen::arbitrary<bool>()) h = hot_key(std::move(h));
  expect_sound(h);
}

WC_PROP(SetPresence, NearMissHistoriesAgreeWithTheOracle, 20000, ()) {
  History h = perturbed_history(ModelId::Set, 12, 6);
  if (*rc::gen::arbitrary<bool>()) h = hot_key(std::move(h));
  expect_sound(h);
}

WC_PROP(SetPresence, OverlappingLinearizableHistoriesAreMostlyProved, 5000, ()) {
  SyntheticHistorySpec spec = overlapping_set(*rc::gen::inRange<size_t>(1, 12), *rc::gen::inRange<uint64_t>(0, 24),
                                              *rc::gen::element(0.0, 0.1, 0.3));
  spec.seed = *rc::gen::arbitrary<uint64_t>();
  History h = make_linearizable_history(spec);
  if (*rc::gen::inRange(0, 4) == 0) corrupt_one_result(h);
  expect_sound(h);
}

// The contended shape the search gives up on as overlap grows: one key,
// 10^5 operations, each overlapping about 4,096 others, some pending.
TEST(SetPresence, AHotKeyUnderHeavyOverlapIsProvedWithoutTheSearch) {
  SyntheticHistorySpec spec = overlapping_set(100000, 4096, 0.01);
  spec.seed = 7;
  const History h = make_linearizable_history(spec);
  const CheckResult r = check_history(h);
  ASSERT_EQ(r.verdict, Verdict::Linearizable) << r.reason;
  EXPECT_EQ(r.algorithm.rfind("set presence procedure", 0), 0u) << r.algorithm;
  EXPECT_FALSE(witness_error(h, r.witness).has_value());
}

// Where it finds no order it says so, and the search decides: a read of
// present with no insert ever invoked.
TEST(SetPresence, WhereTheGreedyOrderRunsShortTheSearchDecides) {
  History h;
  h.meta.model = ModelId::Set;
  Operation find;
  find.data.kind = OpKind::Contains;
  find.data.result_kind = ResultKind::Bool;
  find.data.result = 1;
  find.call = 1;
  find.ret = 2;
  h.ops.push_back(find);
  const DistinctValueCheck fast = check_set_presence(h);
  EXPECT_EQ(fast.outcome, Outcome::Undecided);
  EXPECT_NE(fast.detail.find("needed an insert"), std::string::npos) << fast.detail;
  const CheckResult r = check_history(h);
  EXPECT_EQ(r.verdict, Verdict::Violation);
  EXPECT_NE(r.algorithm.find("own procedure did not decide"), std::string::npos) << r.algorithm;
}
