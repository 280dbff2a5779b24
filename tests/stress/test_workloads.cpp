// Stress workloads: one seed, one workload; the contention knobs; the text
// form; and the shrinker, which keeps a failing workload failing.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "linearizability/checker.hpp"
#include "stress/seam/registry.hpp"
#include "stress/slab_hash/config.hpp"
#include "stress/run/stress_session.hpp"
#include "stress/seam/workload.hpp"
#include "support/sim_for.hpp"

namespace warpcheck {
namespace {

using structures::slab_hash_mode;
using structures::slab_hash_mutant;

using test::sim_for;

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

TEST(StressWorkloads, APrefillInsertsDistinctKeysSpreadOverTheRangeWithValuesOfItsOwn) {
  WarpWorkload w;
  w.teams = 3;
  w.ops_per_lane = 2;
  w.keys = 100;
  w.prefill = 40;
  const Prefill p = prefill_ops(w, OpKind::Upsert);
  ASSERT_EQ(p.per_lane, 2u);
  ASSERT_EQ(p.ops.size(), 64u);
  std::set<int64_t> keys, values;
  for (const auto& op : p.ops) {
    if (!op.active) continue;
    EXPECT_EQ(op.kind, OpKind::Upsert);
    EXPECT_TRUE(op.key >= 0 && op.key < w.keys) << op.key;
    EXPECT_GT(op.value, int64_t(w.teams) * 32 * w.ops_per_lane) << "a value of the run's own";
    keys.insert(op.key);
    values.insert(op.value);
  }
  EXPECT_EQ(keys.size(), 40u);
  EXPECT_EQ(values.size(), 40u);
  EXPECT_GE(*keys.rbegin(), 90) << "spread over the range, not packed at its start";
  EXPECT_EQ(w.largest_value(), uint64_t(3 * 32 * 2 + 40));
  w.prefill = 101;
  EXPECT_THROW(prefill_ops(w, OpKind::Insert), std::invalid_argument);
  w.prefill = 0;
  EXPECT_TRUE(prefill_ops(w, OpKind::Insert).ops.empty());
}

// Every warp structure that takes a prefill and runs on real threads (by
// its declaration), on the simulator and real threads: the prefill is
// recorded in team 0's stream and returns before any run operation starts.
TEST(StressWorkloads, APrefillIsRecordedAndPrecedesTheRunOnEveryWarpStructure) {
  size_t tried = 0;
  for (const Structure& s : registry().structures) {
    const OptionTable& table = *option_table(s);
    const bool prefills = std::any_of(table.begin(), table.end(), [](const OptionSpec& o) { return o.name == "prefill"; });
    if (s.spec.team != "warp" || !prefills || !s.supports(Backend::Threads)) continue;
    ++tried;
    const std::string& name = s.spec.name;
    for (Backend b : {Backend::Sim, Backend::Threads}) {
      StressRequest r = request_from_flags(s, b, "--teams 2 --keys 32 --prefill 20 --ops-per-lane 1");
      const Target t = s.configure(r.options);
      const Ops ops = materialize(t.shape, generate_slots(t.shape, 5));
      const SeedRun run = b == Backend::Sim ? t.sim(simulator_config(t, r.options, ops, 5), ops) : t.threads(5, ops);
      ASSERT_FALSE(run.fault) << name << ": " << run.fault_message;
      // Team 0's stream starts with the prefill's 20 records.
      uint64_t prefilled = 0, last_prefill_return = 0, first_run_call = UINT64_MAX;
      std::set<int64_t> keys;
      for (const Operation& op : run.history.ops) {
        const bool from_prefill = op.team == 0 && prefilled < 20;
        if (from_prefill) {
          ++prefilled;
          EXPECT_EQ(op.data.kind, t.shape.kinds.insert) << name;
          keys.insert(op.data.key);
          last_prefill_return = std::max(last_prefill_return, op.ret);
        } else {
          first_run_call = std::min(first_run_call, op.call);
        }
      }
      EXPECT_EQ(keys.size(), 20u) << name;
      EXPECT_EQ(prefilled, 20u) << name;
      EXPECT_LT(last_prefill_return, first_run_call) << name << " on " << backend_name(b);
      EXPECT_EQ(check_history(run.history).verdict, Verdict::Linearizable) << name << " on " << backend_name(b);
    }
  }
  EXPECT_GT(tried, 0u) << "no structure declares a warp team, a prefill and real threads: the test tried none";
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
    const CheckedRun r = run_slab_hash_sim(c, sim_for({.teams = c.teams}, 1), ops);
    return !r.run.report.ok() || !r.invariant_violations.empty() || check_history(r.run.history).verdict == Verdict::Violation;
  };
  ASSERT_TRUE(fails(materialize(shape, generate_slots(shape, 1))));
  const ShrinkResult s = shrink_workload(shape, 1, fails, 150);
  EXPECT_TRUE(fails(materialize(shape, s.slots))) << "the shrunk workload must still fail";
  EXPECT_LT(s.active_after, s.active_before / 2) << s.active_after << " of " << s.active_before;
}

}  // namespace
}  // namespace warpcheck
