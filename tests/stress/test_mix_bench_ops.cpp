// The mixed-operation benchmark's operations (stress/gpu/mix_bench.hpp),
// which GFSL's benchmark and the public B-Trees' (bench/ext/btree_bench.cu)
// both run op for op: the prefill's keys are distinct, and with
// fresh_inserts every insert is a new key, once, while the other
// operations stay exactly the thesis' ones.
#include <gtest/gtest.h>

#include <set>

#include "stress/gpu/mix_bench.hpp"

namespace warpcheck::gpu {
namespace {

MixBenchSpec spec_of(uint64_t range, uint64_t operations, bool fresh) {
  MixBenchSpec s;
  s.range = range;
  s.operations = operations;
  s.insert = 20;
  s.erase = 20;
  s.fresh_inserts = fresh;
  return s;
}

TEST(MixBenchOps, ThePrefillInsertsHalfTheRangeEachKeyOnce) {
  const MixBenchSpec s = spec_of(10'000, 1'000, false);
  const mix_bench_op gen = mix_bench_phase(s, s.prefill(), true, OpKind::Insert);
  std::set<int64_t> keys;
  for (uint64_t i = 0; i < s.prefill(); ++i) {
    const core::workload_op op = gen(i);
    ASSERT_EQ(op.kind, OpKind::Insert);
    ASSERT_LT(op.key, 10'000);
    keys.insert(op.key);
  }
  EXPECT_EQ(keys.size(), s.prefill());
}

TEST(MixBenchOps, FreshInsertsAreNewKeysEachOnceAndNothingElseChanges) {
  for (uint64_t operations : {1ull, 5ull, 1'000ull, 4'096ull, 100'000ull}) {
    const MixBenchSpec thesis = spec_of(10'000, operations, false), fresh = spec_of(10'000, operations, true);
    const mix_bench_op a = mix_bench_phase(thesis, operations, false, OpKind::Insert);
    const mix_bench_op b = mix_bench_phase(fresh, operations, false, OpKind::Insert);
    ASSERT_EQ(fresh.key_bound(), 10'000 + (uint64_t(1) << fresh.fresh_bits()));
    ASSERT_GE(uint64_t(1) << fresh.fresh_bits(), operations);
    std::set<int64_t> inserted;
    uint64_t inserts = 0, quarters[4] = {};
    for (uint64_t i = 0; i < operations; ++i) {
      const core::workload_op x = a(i), y = b(i);
      ASSERT_EQ(x.kind, y.kind) << "slot " << i;
      ASSERT_EQ(x.value, y.value);
      if (y.kind != OpKind::Insert) {
        ASSERT_EQ(x.key, y.key) << "slot " << i << ": only inserts change";
        continue;
      }
      ++inserts;
      ASSERT_GE(y.key, 10'000) << "a fresh key is never one of the prefilled range";
      ASSERT_LT(uint64_t(y.key), fresh.key_bound());
      ASSERT_TRUE(inserted.insert(y.key).second) << "key " << y.key << " inserted twice";
      ++quarters[(uint64_t(y.key - 10'000) << 2) >> fresh.fresh_bits()];
    }
    // Spread over the interval, not packed at one end: consecutive new keys
    // would all meet at a tree's right edge.
    if (inserts >= 1'000)
      for (uint64_t q : quarters) {
        EXPECT_GT(q, inserts * 15 / 100) << operations << " operations";
        EXPECT_LT(q, inserts * 35 / 100) << operations << " operations";
      }
  }
}

}  // namespace
}  // namespace warpcheck::gpu
