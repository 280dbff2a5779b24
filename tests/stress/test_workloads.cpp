// Stress workloads: one seed, one workload; the contention knobs; the text
// form; and the shrinker, which keeps a failing workload failing.
#include <gtest/gtest.h>

#include <set>

#include "linearizability/checker.hpp"
#include "stress/slab_hash/config.hpp"
#include "stress/workload.hpp"

namespace warpcheck {
namespace {

using structures::slab_hash_mode;
using structures::slab_hash_mutant;

sim::SimConfig sim_for(uint32_t teams, uint64_t seed) {
  sim::SimConfig s;
  s.teams = teams;
  s.seed = seed;
  return s;
}

TEST(StressWorkloads, SeededKnobbedAndReadBack) {
  WorkloadShape w;
  w.teams = 4;
  w.per_lane = 8;
  w.keys = 1000;
  w.knobs = {3, 0.9, 0, 0};
  const auto a = materialize(w, generate_slots(w, 7)), b = materialize(w, generate_slots(w, 7));
  ASSERT_EQ(format_workload(a), format_workload(b));
  EXPECT_NE(format_workload(a), format_workload(materialize(w, generate_slots(w, 8))));
  size_t hot = 0;
  for (const auto& op : a) hot += op.key < 3;
  EXPECT_GT(hot, a.size() * 8 / 10) << "90% of operations should be on the 3 hot keys";
  // Same key in a warp: every lane but 0 copies its neighbour.
  w.knobs = {0, 0, 1, 0};
  const auto same = materialize(w, generate_slots(w, 3));
  for (size_t i = w.per_lane; i < 32 * w.per_lane; ++i) EXPECT_EQ(same[i].key, same[i % w.per_lane].key);
  // Churn: an erase is followed in its lane by a re-insert of its key.
  w.knobs = {0, 0, 0, 1};
  const auto churn = materialize(w, generate_slots(w, 3));
  for (size_t i = 0; i + 1 < churn.size(); ++i)
    if (churn[i].kind == OpKind::Erase && (i % w.per_lane) + 1 < w.per_lane) {
      EXPECT_EQ(churn[i + 1].kind, OpKind::Insert);
      EXPECT_EQ(churn[i + 1].key, churn[i].key);
    }
  // Unique values, and a text form that reads back.
  std::set<int64_t> values;
  for (const auto& op : a) {
    if (op.kind == OpKind::Insert) {
      EXPECT_TRUE(values.insert(op.value).second);
    }
  }
  EXPECT_EQ(format_workload(parse_workload(format_workload(a), a.size())), format_workload(a));
  EXPECT_THROW(parse_workload("insert x\n", 1), std::invalid_argument);
  EXPECT_THROW(parse_workload("-\n", 2), std::invalid_argument);
}

TEST(StressWorkloads, AFailingWorkloadShrinks) {
  SlabHashConfig c;
  c.teams = 3;
  c.ops_per_lane = 2;
  c.keys = 8;
  c.mode = slab_hash_mode::map;
  c.mutant = slab_hash_mutant::slab_local_uniqueness;
  const WorkloadShape shape = slab_hash_shape(c);
  auto fails = [&](const std::vector<core::workload_op>& ops) {
    const CheckedRun r = run_slab_hash_sim(c, sim_for(c.teams, 1), ops);
    return !r.run.report.ok() || !r.invariant_violations.empty() || check_history(r.run.history).verdict == Verdict::Violation;
  };
  ASSERT_TRUE(fails(materialize(shape, generate_slots(shape, 1))));
  const ShrinkResult s = shrink_workload(shape, 1, fails, 150);
  EXPECT_TRUE(fails(materialize(shape, s.slots))) << "the shrunk workload must still fail";
  EXPECT_LT(s.active_after, s.active_before / 2) << s.active_after << " of " << s.active_before;
}

}  // namespace
}  // namespace warpcheck
