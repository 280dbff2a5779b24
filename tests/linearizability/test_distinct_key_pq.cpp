// The priority queue's few-keys refutation (distinct_key_pq.hpp): each
// finding on a hand-written history with the operations and keys it must
// name, the histories it must say nothing about, its soundness against the
// brute-force oracle on many small random and near-miss histories (the
// history and the cut-down evidence both refuted), and the heap-shaped
// history with one wrong pop refuted on at most 4 operations.
#include <gtest/gtest.h>

#include <initializer_list>

#include "linearizability/checker.hpp"
#include "linearizability/distinct_key_pq.hpp"
#include "linearizability/synthetic/synthetic_history.hpp"
#include "support/brute_force_oracle.hpp"
#include "support/property.hpp"
#include "support/random_histories.hpp"

using namespace warpcheck;
using namespace warpcheck::testing;

namespace {

// A priority-queue history written out by hand.
class PqHistory {
 public:
  PqHistory() { h_.meta.model = ModelId::PriorityQueue; }

  PqHistory& push(uint64_t call, uint64_t ret, std::initializer_list<int64_t> keys) {
    Operation& o = add(OpKind::Push, call, ret);
    o.data.keys_begin = uint32_t(h_.key_pool.size());
    o.data.keys_count = uint32_t(keys.size());
    h_.key_pool.insert(h_.key_pool.end(), keys);
    return *this;
  }
  PqHistory& pop(uint64_t call, uint64_t ret, int64_t asked, std::initializer_list<int64_t> got) {
    Operation& o = add(OpKind::Pop, call, ret);
    o.data.value = asked;
    o.data.result_kind = ResultKind::Keys;
    o.data.out_begin = uint32_t(h_.key_pool.size());
    o.data.out_count = uint32_t(got.size());
    h_.key_pool.insert(h_.key_pool.end(), got);
    return *this;
  }
  PqHistory& pending_pop(uint64_t call, int64_t asked) {
    Operation& o = add(OpKind::Pop, call, kPendingTime);
    o.data.value = asked;
    o.data.pending = true;
    return *this;
  }
  History done() {
    compact_key_pool(h_);
    validate_history(h_, "hand-written pq history");
    return h_;
  }

 private:
  Operation& add(OpKind kind, uint64_t call, uint64_t ret) {
    Operation o;
    o.id = h_.ops.size();
    o.team = uint32_t(h_.ops.size());
    o.call = call;
    o.ret = ret;
    o.data.kind = kind;
    h_.ops.push_back(o);
    return h_.ops.back();
  }
  History h_;
};

// The whole check's answer on a history the refutation decides.
CheckResult expect_refuted_on(const History& h, std::vector<uint32_t> ops, std::vector<int64_t> keys) {
  const std::optional<KeyProjection> found = refute_distinct_key_pq(h);
  EXPECT_TRUE(found.has_value());
  if (!found) return {};
  EXPECT_EQ(found->ops, ops) << found->why;
  EXPECT_EQ(found->keys, keys) << found->why;
  EXPECT_FALSE(brute_force_linearizable(h));
  EXPECT_FALSE(brute_force_linearizable(project_onto_keys(h, *found)));
  CheckResult r = check_history(h);
  EXPECT_EQ(r.verdict, Verdict::Violation);
  EXPECT_NE(r.algorithm.find("distinct-key priority-queue refutation"), std::string::npos) << r.algorithm;
  EXPECT_TRUE(r.counterexample.has_value());
  if (r.counterexample) {
    EXPECT_EQ(r.counterexample->projected_keys, keys);
  }
  return r;
}

}  // namespace

TEST(DistinctKeyPq, APopThatPassedOverAKeySurelyInTheQueue) {
  // 1 and 9 pushed before; the pop returns 9 and 1 is removed by a pop invoked after it returned.
  const History h = PqHistory().push(0, 1, {9, 1}).push(0, 1, {5}).pop(2, 3, 1, {9}).pop(4, 5, 2, {1, 5}).done();
  const CheckResult r = expect_refuted_on(h, {0, 2}, {1, 9});
  EXPECT_NE(r.reason.find("returned 9 but not the smaller 1"), std::string::npos) << r.reason;
}

TEST(DistinctKeyPq, APopThatFoundTheQueueShortThoughAKeyWasIn) {
  const History h = PqHistory().push(0, 1, {4, 7}).pop(2, 3, 3, {4}).done();
  const CheckResult r = expect_refuted_on(h, {0, 1}, {7});
  EXPECT_NE(r.reason.find("found the queue short"), std::string::npos) << r.reason;
}

TEST(DistinctKeyPq, TwoOverlappingPopsNeitherOfWhichCanGoFirst) {
  // Whichever goes first finds 1 or 2 in the queue below what it returned.
  const History h = PqHistory().push(0, 1, {1, 2, 3, 4}).pop(2, 5, 2, {1, 4}).pop(3, 6, 2, {2, 3}).done();
  const CheckResult r = expect_refuted_on(h, {0, 1, 2}, {1, 2, 3, 4});
  EXPECT_NE(r.reason.find("neither of two overlapping pops can go first"), std::string::npos) << r.reason;
  EXPECT_LE(r.counterexample->history.ops.size(), 3u);
}

TEST(DistinctKeyPq, KeysPoppedTwiceOrNeverPushed) {
  expect_refuted_on(PqHistory().push(0, 1, {3}).pop(2, 3, 1, {8}).done(), {1}, {8});
  expect_refuted_on(PqHistory().push(0, 1, {3}).pop(2, 3, 1, {3}).pop(2, 3, 1, {3}).done(), {0, 1, 2}, {3});
}

TEST(DistinctKeyPq, SaysNothingWhereAnOrderOrAPendingPopExplainsTheHistory) {
  // Overlapping pops that can go one after the other.
  EXPECT_FALSE(refute_distinct_key_pq(PqHistory().push(0, 1, {1, 2, 3, 4}).pop(2, 5, 2, {3, 4}).pop(3, 6, 2, {1, 2}).done()));
  // A pending pop invoked before the pop returned may have taken 1.
  EXPECT_FALSE(refute_distinct_key_pq(PqHistory().push(0, 1, {1, 2}).pending_pop(2, 1).pop(3, 4, 1, {2}).done()));
  // The smaller key's push had not returned when the pop was invoked.
  EXPECT_FALSE(refute_distinct_key_pq(PqHistory().push(0, 1, {2}).push(0, 5, {1}).pop(3, 4, 1, {2}).done()));
  // A key pushed twice: not this procedure's (the search decides).
  EXPECT_FALSE(refute_distinct_key_pq(PqHistory().push(0, 1, {1}).push(0, 1, {1}).pop(3, 4, 2, {1}).done()));
  // Not a priority queue.
  History set;
  set.meta.model = ModelId::Set;
  EXPECT_FALSE(refute_distinct_key_pq(set));
}

// Soundness: whatever the refutation says of a small history, the oracle
// refutes the history and the cut-down evidence; and the whole check still
// equals the oracle. Batched, overlapping, pending, wrong pops, corrupted
// results: the near misses.
WC_PROP(DistinctKeyPq, RefutationsAreSoundOnSmallHistories, 20000, ()) {
  const History h = random_batched_pq_history(9, *rc::gen::element(int64_t(1) << 62, int64_t(40)), 3);
  const bool expected = brute_force_linearizable(h);
  const std::optional<KeyProjection> found = refute_distinct_key_pq(h);
  RC_TAG(expected ? "linearizable" : "violation", found ? "refuted on few keys" : "not refuted");
  if (found) {
    RC_ASSERT(!expected);
    RC_ASSERT(found->ops.size() <= 6u);
    RC_ASSERT(!brute_force_linearizable(project_onto_keys(h, *found)));
  }
  CheckOptions opt;
  opt.threads = 1;
  RC_ASSERT((check_history(h, opt).verdict == Verdict::Linearizable) == expected);
}

// The shape: 10^6 keys in batches of 1,024, pushes then pops, 512
// operations at once, one pop trading its largest key with the next pop's
// smallest: refuted on at most 4 operations, pushes and pops named.
TEST(DistinctKeyPq, AHeapShapedHistoryWithOneWrongPopIsRefutedOnFourOperations) {
  const SyntheticHistorySpec spec{.model = ModelId::PriorityQueue, .operations = 1954, .keys = int64_t(1) << 62, .batch = 1024,
                                  .warp_batch = 512, .full_batches = true, .phases = true, .wrong_pops = 1};
  const History h = make_linearizable_history(spec);
  const CheckResult r = check_history(h);
  ASSERT_EQ(r.verdict, Verdict::Violation) << r.reason;
  EXPECT_NE(r.algorithm.find("distinct-key priority-queue refutation"), std::string::npos) << r.algorithm;
  ASSERT_TRUE(r.counterexample.has_value());
  const Counterexample& cx = *r.counterexample;
  EXPECT_LE(cx.history.ops.size(), 4u);
  EXPECT_EQ(cx.shrunk_from, h.ops.size());
  size_t pops = 0;
  for (const Operation& o : cx.history.ops) pops += o.data.kind == OpKind::Pop;
  EXPECT_EQ(pops, 2u) << r.reason;
  EXPECT_EQ(check_history(cx.history).verdict, Verdict::Violation);
  EXPECT_FALSE(brute_force_linearizable(cx.history));
}

// A report names a batch of 1,024 keys without printing them all; short
// batches are shown whole.
TEST(DistinctKeyPq, LongBatchesAreShortenedInDescriptions) {
  PqHistory b;
  b.push(0, 1, {3, 1, 2});
  History h = b.done();
  EXPECT_EQ(describe_operation(h, h.ops[0]), "push([3,1,2])");
  h.key_pool.clear();
  for (int64_t k = 0; k < 1024; ++k) h.key_pool.push_back(k);
  h.ops[0].data.keys_count = 1024;
  const std::string d = describe_operation(h, h.ops[0]);
  EXPECT_EQ(d, "push([0,1,2,3,4,5,6,7,... 1012 more ...,1020,1021,1022,1023])");
}
