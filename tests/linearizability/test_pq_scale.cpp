// Priority queues at GPU scale: the recorded heap's shape (full batches of
// keys, pushes then pops, many operations overlapping) is decided without
// branching over subsets of concurrent pushes, violating or not; the
// queue's state keeps batches O(k log n) and undoes them exactly.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "linearizability/checker.hpp"
#include "linearizability/witness.hpp"
#include "models/priority_queue.hpp"
#include "linearizability/synthetic/synthetic_history.hpp"

using namespace warpcheck;

namespace {

SyntheticHistorySpec heap_shape(uint32_t wrong_pops, uint32_t warp_batch, uint64_t overlap) {
  return SyntheticHistorySpec{.model = ModelId::PriorityQueue, .operations = 400, .keys = int64_t(1) << 62, .overlap = overlap,
                              .batch = 256, .warp_batch = warp_batch, .full_batches = true, .phases = true,
                              .wrong_pops = wrong_pops};
}

}  // namespace

TEST(PqScale, HeapShapedHistoriesAreProvedInAboutOneStepPerOperation) {
  for (auto [warp_batch, overlap] : {std::pair<uint32_t, uint64_t>{128, 0}, {0, 64}}) {
    const History h = make_linearizable_history(heap_shape(0, warp_batch, overlap));
    const CheckResult r = check_history(h);
    ASSERT_EQ(r.verdict, Verdict::Linearizable) << r.reason;
    EXPECT_FALSE(witness_error(h, r.witness).has_value());
    EXPECT_LT(r.steps, 10 * h.ops.size()) << "warp batch " << warp_batch << ", overlap " << overlap;
  }
}

TEST(PqScale, ViolatingHeapShapedHistoriesAreRefutedWithoutTryingSubsetsOfPushes) {
  // One pop traded a key with the next: before the block rules the search
  // tried subsets of the concurrent pushes and ran out of time.
  for (auto [warp_batch, overlap] : {std::pair<uint32_t, uint64_t>{128, 0}, {0, 64}}) {
    const History h = make_linearizable_history(heap_shape(1, warp_batch, overlap));
    CheckOptions opt;
    opt.timeout_seconds = 20;
    const CheckResult r = check_history(h, opt);
    ASSERT_EQ(r.verdict, Verdict::Violation) << r.reason;
    EXPECT_LT(r.steps, 20 * h.ops.size()) << "warp batch " << warp_batch << ", overlap " << overlap;
    ASSERT_TRUE(r.counterexample.has_value());
    EXPECT_TRUE(r.counterexample->minimal);
    EXPECT_EQ(check_history(r.counterexample->history).verdict, Verdict::Violation);
  }
}

TEST(PqScale, BatchStepsAndUndoAgreeWithAReferenceMultiset) {
  // A million keys in descending order (every insert at the front, the
  // sorted vector's worst case), then pops and undos, against std::multiset.
  using Model = PriorityQueueModel;
  std::vector<int64_t> pool;
  for (int64_t k = 999999; k >= 0; --k) pool.push_back(k / 2);  // duplicates too
  OpData push;
  push.kind = OpKind::Push;
  push.keys_count = uint32_t(pool.size());
  Model::State s;
  std::multiset<int64_t> ref(pool.begin(), pool.end());
  ASSERT_TRUE(Model::step(s, push, pool.data(), 0));
  std::mt19937_64 rng(3);
  for (int round = 0; round < 50; ++round) {
    const uint32_t n = uint32_t(rng() % 5000);
    OpData pop;
    pop.kind = OpKind::Pop;
    pop.value = n;
    pop.result_kind = ResultKind::Keys;
    pop.out_begin = uint32_t(pool.size());
    auto it = ref.begin();
    for (uint32_t i = 0; i < n && it != ref.end(); ++i, ++it) pool.push_back(*it);
    pop.out_count = uint32_t(pool.size()) - pop.out_begin;
    ASSERT_TRUE(Model::admits(s, pop, pool.data()));
    ASSERT_TRUE(Model::step(s, pop, pool.data(), 0));
    if (round % 3 == 0) {
      Model::undo(s, pop, pool.data());  // put them back
    } else {
      ref.erase(ref.begin(), it);
    }
    ASSERT_EQ(s.size(), ref.size());
    ASSERT_EQ(s.front(), *ref.begin());
  }
  Model::State expected;
  for (int64_t k : ref) expected.insert(k);
  EXPECT_TRUE(s == expected);
  EXPECT_EQ(s.hash(), expected.hash());
}
