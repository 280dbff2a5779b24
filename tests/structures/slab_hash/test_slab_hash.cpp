// The slab hash and SlabAlloc on the simulator: the correct modes under many
// seeds and workloads, SlabAlloc exhaustion, the quiescent invariants, and
// a directed race that the paper's multimap absent answer loses. (Every
// planted bug is caught by its declared oracle in tests/stress/test_catalogue.cpp.)
#include <memory>
#include <gtest/gtest.h>

#include <cstring>

#include "linearizability/checker.hpp"
#include "models/base/splitmix.hpp"
#include "stress/recorder/batch_history.hpp"
#include "stress/slab_hash/config.hpp"
#include "structures/core/bulk_driver.hpp"
#include "structures/core/spin.hpp"
#include "support/slab_hash_sim.hpp"

namespace warpcheck {
namespace {

using test::across_slabs;
using test::directed_absent_race;
using test::DirectedRace;
using test::inside_one_slab;
using test::run_bulk_in_simulator;
using test::sim_for;
using test::slab_hash_sim_shape;
using test::small_table;
using structures::slab_alloc;
using structures::slab_hash;
using structures::slab_hash_mode;
using structures::slab_hash_mutant;
namespace slab_hash_fix = structures::slab_hash_fix;

WorkloadShape shape_of(SlabHashConfig c, ContentionKnobs knobs = {}) {
  c.knobs = knobs;
  return slab_hash_shape(c);
}

TEST(SlabHash, CorrectModesAreLinearizableWithInvariantsUnderManyWorkloads) {
  const ContentionKnobs knobs[] = {{}, {2, 0.8, 0, 0}, {0, 0, 0.5, 0}, {0, 0, 0, 0.8}};
  for (slab_hash_mode mode : {slab_hash_mode::map, slab_hash_mode::multimap}) {
    for (size_t k = 0; k < std::size(knobs); ++k) {
      SlabHashConfig c = small_table(mode);
      c.mix = parse_op_mix("insert=45,erase=35,search=20");
      const WorkloadShape shape = shape_of(c, knobs[k]);
      for (uint64_t seed = 1; seed <= 40; ++seed) {
        const auto kind = seed % 4 == 0 ? sim::SchedulerKind::Pct : sim::SchedulerKind::Random;
        const CheckedRun r = run_slab_hash_sim(c, sim_for(slab_hash_sim_shape(c.teams), seed, kind), materialize(shape, generate_slots(shape, seed)));
        ASSERT_TRUE(r.run.report.ok()) << "mode " << int(mode) << " knobs " << k << " seed " << seed << ": " << r.run.report.message;
        ASSERT_TRUE(r.invariant_violations.empty()) << r.invariant_violations[0];
        const CheckResult check = check_history(r.run.history);
        ASSERT_EQ(check.verdict, Verdict::Linearizable) << "mode " << int(mode) << " knobs " << k << " seed " << seed << ": " << check.reason;
      }
    }
  }
}

TEST(SlabHash, LongListsStayCorrect) {
  // One bucket, many live pairs: lists of several slabs, links raced for.
  for (slab_hash_mode mode : {slab_hash_mode::map, slab_hash_mode::multimap}) {
    SlabHashConfig c = small_table(mode);
    c.teams = 4;
    c.ops_per_lane = 4;
    c.keys = 64;
    c.mix = parse_op_mix("insert=70,erase=10,search=20");
    for (uint64_t seed = 1; seed <= 10; ++seed) {
      const CheckedRun r = run_slab_hash_sim(c, sim_for(slab_hash_sim_shape(c.teams), seed));
      ASSERT_TRUE(r.run.report.ok()) << r.run.report.message;
      ASSERT_TRUE(r.invariant_violations.empty()) << r.invariant_violations[0];
      ASSERT_EQ(check_history(r.run.history).verdict, Verdict::Linearizable) << "seed " << seed;
    }
  }
}

TEST(SlabHash, MultimapSearchThatMissesAMovingKeyAcrossSlabsIsStillLinearizable) {
  int absent = 0;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    const DirectedRace r = directed_absent_race(across_slabs(), seed);
    ASSERT_EQ(r.verdict, Verdict::Linearizable) << "seed " << seed;
    absent += r.search_absent;
  }
  EXPECT_GT(absent, 0) << "the search never answered absent: the race was not exercised";
  RecordProperty("absent_answers_in_300_seeds", absent);
}

TEST(SlabHash, TornSlabReadNeverAnswersAbsentUnderTheDeleteGuard) {
  int caught_without_guard = 0;
  for (uint64_t seed = 1; seed <= 3000; ++seed) {
    const auto pct = sim::SchedulerKind::Pct;  // a lane must lag far behind its warp: PCT's change points do that
    const DirectedRace guarded = directed_absent_race(inside_one_slab(), seed, slab_hash_fix::kAll, pct);
    ASSERT_EQ(guarded.verdict, Verdict::Linearizable) << "seed " << seed;
    ASSERT_FALSE(guarded.search_absent) << "seed " << seed << ": an instance was present at every moment";
    const DirectedRace unguarded = directed_absent_race(inside_one_slab(), seed, slab_hash_fix::kAll & ~slab_hash_fix::delete_guard, pct);
    // Without the guard an absent answer here is always a violation.
    ASSERT_EQ(unguarded.search_absent, unguarded.verdict == Verdict::Violation) << "seed " << seed;
    caught_without_guard += unguarded.verdict == Verdict::Violation;
  }
  EXPECT_GT(caught_without_guard, 0) << "the torn read never happened: the race was not exercised";
  RecordProperty("violations_without_guard_in_3000_seeds", caught_without_guard);
}

// Issue 29: a multimap delete must fence.sc between its removal and the
// guard's release. Warp 0 inserts 100; warp 1 inserts 101 (the next slot)
// and then finds 100; warp 3 removes 100; warp 2's erase acquires the
// guard's new version, so it sees the removal, but misses 101 and answers
// absent, while warp 1's find says 100 outlived 101's insert (store
// buffering across the guard's release: docs/relaxed-memory.md). PTX
// allows it without the fence; the targeted scheduler found it at seed
// 2618 of this workload, about 1 seed in 3,000.
// The guard's read side (issue 32): acquire slab loads replace the fence
// only where the loads are relaxed ones to begin with. As printed
// (relaxed_slab_loads off) they are plain loads, so --guard-order acquire
// keeps the fence there; only the planted bug goes without both.
TEST(SlabHash, TheGuardReadKeepsAnOrderWhateverTheSlabLoads) {
  namespace fix = structures::slab_hash_fix;
  structures::slab_hash h;
  h.mode = structures::slab_hash_mode::multimap;
  h.guard_order = structures::slab_guard_order::acquire;
  EXPECT_EQ(h.guarded_load_order<-1>(), core::order::acquire);
  EXPECT_FALSE(h.fence_after_guarded_read<-1>());
  h.fixes = fix::kAll & ~fix::relaxed_slab_loads;
  EXPECT_EQ(h.guarded_load_order<-1>(), core::order::relaxed);
  EXPECT_TRUE(h.fence_after_guarded_read<-1>()) << "plain slab loads under --guard-order acquire must keep the fence";
  h.fixes = fix::kAll;
  h.guard_order = structures::slab_guard_order::fence;
  EXPECT_EQ(h.guarded_load_order<-1>(), core::order::relaxed);
  EXPECT_TRUE(h.fence_after_guarded_read<-1>());
  for (auto order : {structures::slab_guard_order::fence, structures::slab_guard_order::acquire}) {
    h.guard_order = order;
    h.mutant = structures::slab_hash_mutant::guard_read_unordered;
    EXPECT_EQ(h.guarded_load_order<-1>(), core::order::relaxed);
    EXPECT_FALSE(h.fence_after_guarded_read<-1>());
  }
  // The bulk benchmark's instantiation, every fix on.
  EXPECT_EQ(h.guarded_load_order<structures::slab_hash::kGuardAcquireLoads | 1>(), core::order::acquire);
  EXPECT_FALSE(h.fence_after_guarded_read<structures::slab_hash::kGuardAcquireLoads | 1>());
}

TEST(SlabHash, MultimapDeleteFencesTheGuardReleaseAgainstStoreBuffering) {
  const std::string workload = "insert 1 100\n-*63\n"
                               "insert 1 101\nfind 1\n-*62\n"
                               "erase 1\nerase 1\n-*62\n"
                               "erase 1\n-*63\n";
  auto run = [&](slab_hash_mutant m) {
    SlabHashConfig c;
    c.mode = slab_hash_mode::multimap;
    c.teams = 4;
    c.keys = 2;
    c.mutant = m;
    sim::SimConfig s = sim_for(slab_hash_sim_shape(c.teams), 2618, sim::SchedulerKind::Targeted);
    s.memory_model = sim::MemoryModel::relaxed;
    const CheckedRun r = run_slab_hash_sim(c, s, parse_workload(workload, size_t(c.teams) * 32 * c.ops_per_lane));
    EXPECT_TRUE(r.run.report.ok()) << r.run.report.message;
    return check_history(r.run.history);
  };
  const CheckResult fixed = run(slab_hash_mutant::none);
  EXPECT_EQ(fixed.verdict, Verdict::Linearizable) << fixed.reason;
  const CheckResult release_only = run(slab_hash_mutant::guard_leave_without_sc_fence);
  EXPECT_EQ(release_only.verdict, Verdict::Violation) << "the race did not happen: " << release_only.reason;
}

TEST(SlabHash, BucketFoldingEqualsTheDivision) {
  // ((a k + b) mod p) mod B by folding the high word (2^32 = 5 mod p) is
  // the definition's value, extremes included.
  slab_hash h;
  const uint32_t edge[] = {0u, 1u, 4u, 5u, 6u, 0xFFFFFFFAu, 0xFFFFFFFBu, 0xFFFFFFFCu, 0xFFFFFFFEu, 0xFFFFFFFFu};
  uint64_t x = 1;
  for (int round = 0; round < 200000; ++round) {
    x = detail::mix64(x);
    h.hash_a = 1 + static_cast<uint32_t>(x % (slab_hash::kPrime - 1));
    h.hash_b = static_cast<uint32_t>((x >> 32) % slab_hash::kPrime);
    h.buckets = round % 3 == 0 ? 1 + static_cast<uint32_t>(x >> 40) : 1 + static_cast<uint32_t>(x % 1000);
    const uint32_t key = round < 10 ? edge[round] : static_cast<uint32_t>(detail::mix64(x + 1));
    ASSERT_EQ(h.bucket_of(key), h.bucket_by_division(key)) << "a " << h.hash_a << " b " << h.hash_b << " key " << key;
  }
  h.hash_a = static_cast<uint32_t>(slab_hash::kPrime - 1);
  h.hash_b = static_cast<uint32_t>(slab_hash::kPrime - 1);
  h.buckets = 0xFFFFFFFFu;
  for (uint32_t key : edge) ASSERT_EQ(h.bucket_of(key), h.bucket_by_division(key)) << key;
}

TEST(SlabHash, BulkDriverRecordedPerBatchAndPerOperationIsLinearizable) {
  for (slab_hash_mode mode : {slab_hash_mode::map, slab_hash_mode::multimap}) {
    SlabHashConfig c = small_table(mode);
    c.mix = parse_op_mix("insert=45,erase=35,search=20");
    for (uint64_t seed = 1; seed <= 24; ++seed) {
      const uint32_t per_lane = seed % 2 ? 1 : 2;
      const int record = seed % 4 == 0 ? 1 : 2;
      const HostMemory memory(slab_hash_layout(c));
      const slab_hash table = slab_hash_view(c, seed, memory.pointers());
      if (seed % 3 == 0) {
        if (mode == slab_hash_mode::map)
          run_bulk_in_simulator(structures::slab_hash_fixed<slab_hash_mode::map>{table}, memory, c, seed, record, per_lane, "fixed map",
                                sim::SchedulerKind::Pct);
        else
          run_bulk_in_simulator(structures::slab_hash_fixed<slab_hash_mode::multimap>{table}, memory, c, seed, record, per_lane,
                                "fixed multimap", sim::SchedulerKind::Pct);
      } else {
        run_bulk_in_simulator(table, memory, c, seed, record, per_lane, mode == slab_hash_mode::map ? "map" : "multimap");
      }
      ASSERT_TRUE(structures::slab_hash_invariants(table).empty()) << structures::slab_hash_invariants(table)[0];
    }
  }
}

// A read-only launch (slab_hash::kReadOnlyLaunch: searches only, plain
// loads, no multimap guard) after a build launch (kInsertOnlyLaunch), both
// served by tiles of 16 or 8 lanes or one operation at a time: every built
// key is found with its value, every other key absent. Both launches run
// the bulk driver on the simulator, one after the other (the GPU's stream
// order).
TEST(SlabHash, ReadOnlySearchLaunchAfterABuildFindsEveryKey) {
  for (slab_hash_mode mode : {slab_hash_mode::map, slab_hash_mode::multimap}) {
    SlabHashConfig c = small_table(mode);
    for (uint64_t seed = 1; seed <= 4; ++seed) {
      const HostMemory memory(slab_hash_layout(c));
      const slab_hash table = slab_hash_view(c, seed, memory.pointers());
      const uint32_t n = 96;
      std::vector<uint32_t> keys(2 * n), values(2 * n), out(2 * n, 0);
      for (uint32_t i = 0; i < 2 * n; ++i) keys[i] = i * 7919u + uint32_t(seed), values[i] = i + 1000;
      // The slabs' shadow states (allocated or not) carry over from one
      // launch's simulator to the next, as the memory does.
      std::unique_ptr<sim::Simulator> before;
      auto launch = [&](const auto& s, const core::bulk_input& in) {
        const uint32_t teams = static_cast<uint32_t>((in.count + 63) / 64);
        auto simulator = std::make_unique<sim::Simulator>(sim_for(slab_hash_sim_shape(teams), seed, seed % 2 ? sim::SchedulerKind::Pct : sim::SchedulerKind::Random));
        memory.add_shadow_pools(simulator->shadow());
        if (before)
          for (size_t a = 0; a < memory.layout().size(); ++a)
            for (size_t u = 0; u < memory.layout()[a].units; ++u) {
              const void* unit = static_cast<const char*>(memory.bytes(a)) + u * memory.layout()[a].unit_bytes;
              if (const auto st = before->shadow().state_of(unit)) simulator->shadow().mark(unit, *st);
            }
        const sim::RunReport r = simulator->run([&](sim::sim_team& t) {
          core::run_team_bulk<2>(t, s, in, uint64_t(t.team_id()) * 64, out.data(), nullptr, nullptr);
        });
        ASSERT_TRUE(r.ok()) << "seed " << seed << ": " << r.message;
        before = std::move(simulator);
      };
      core::bulk_input build;
      build.keys = keys.data();
      build.values = values.data();
      build.kind = slab_hash_op_kinds(mode).insert;
      build.count = n;
      core::bulk_input search;
      search.keys = keys.data();
      search.kind = OpKind::Find;
      search.count = 2 * n;
      // Tiles of 16 lanes (odd seeds) or 8, or one operation at a time (seed 4).
      auto build_then_search = [&]<slab_hash_mode M, uint32_t Tile>() {
        launch(structures::slab_hash_fixed<M, slab_hash::kInsertOnlyLaunch, Tile>{table}, build);
        launch(structures::slab_hash_fixed<M, slab_hash::kReadOnlyLaunch, Tile>{table}, search);
      };
      auto with_tiles = [&]<slab_hash_mode M>() {
        if (seed % 2) build_then_search.template operator()<M, 16>();
        else if (seed == 2) build_then_search.template operator()<M, 8>();
        else build_then_search.template operator()<M, 0>();
      };
      if (mode == slab_hash_mode::map) with_tiles.template operator()<slab_hash_mode::map>();
      else with_tiles.template operator()<slab_hash_mode::multimap>();
      for (uint32_t i = 0; i < 2 * n; ++i) ASSERT_EQ(out[i], i < n ? values[i] : core::kNoValue) << "seed " << seed << " op " << i;
    }
  }
}

TEST(SlabAlloc, ExhaustionIsReportedNotLooped) {
  // One memory block of 1,024 slabs; the 1,025th allocation must fail.
  std::vector<uint32_t> slabs(size_t(1024) * 32, 0), bitmaps(32, 0);
  const slab_alloc alloc{slabs.data(), bitmaps.data(), 1, 1};
  std::vector<uint32_t> got;
  sim::Simulator simulator(sim_for(slab_hash_sim_shape(1), 1));
  simulator.shadow().add_pool(slabs.data(), 128, 1024, "slabs", core::unit_state::uninitialized);
  const sim::RunReport r = simulator.run([&](sim::sim_team& t) {
    slab_alloc::warp_state s;
    for (int i = 0; i < 1025; ++i) {
      const uint32_t h = alloc.allocate(t, s);
      if (t.lane() == 0) got.push_back(h);
    }
  });
  ASSERT_TRUE(r.ok()) << r.message;
  ASSERT_EQ(got.size(), 1025u);
  EXPECT_EQ(got.back(), slab_alloc::kEmptyPointer);
  std::vector<uint32_t> handed(got.begin(), got.end() - 1);
  std::sort(handed.begin(), handed.end());
  EXPECT_EQ(std::unique(handed.begin(), handed.end()), handed.end()) << "a slab was handed out twice";
  for (uint32_t w : bitmaps) EXPECT_EQ(w, 0xFFFFFFFFu);
}

TEST(SlabAlloc, TheSlabHashReportsExhaustion) {
  SlabHashConfig c = small_table(slab_hash_mode::multimap);
  c.teams = 1;
  c.ops_per_lane = 8;
  c.blocks_per_super = 1;
  c.mix = parse_op_mix("insert=1");
  // Every slab handed out by hand first: the first list extension finds none.
  const HostMemory memory(slab_hash_layout(c));
  std::memset(memory.bytes(2), 0xFF, memory.layout()[2].bytes());  // the bitmaps
  const WorkloadShape shape = slab_hash_shape(c);
  const auto ops = materialize(shape, generate_slots(shape, 1));
  sim::Simulator simulator(sim_for(slab_hash_sim_shape(1), 1));
  HostLog log(1, 256);
  const slab_hash table = slab_hash_view(c, 1, memory.pointers());
  const sim::RunReport r = simulator.run([&](sim::sim_team& t) { core::run_team_ops(t, table, {ops.data(), 8}, &log.view()); });
  EXPECT_EQ(r.outcome, sim::Outcome::LaneError);
  EXPECT_NE(r.message.find("SlabAlloc exhausted"), std::string::npos) << r.message;
}

TEST(SlabHashInvariants, ReportDuplicatesLeaksAndUnallocatedLinks) {
  SlabHashConfig c = small_table(slab_hash_mode::map);
  const HostMemory m(slab_hash_layout(c));
  const slab_hash view = slab_hash_view(c, 1, m.pointers());
  EXPECT_TRUE(structures::slab_hash_invariants(view).empty());
  uint32_t* base_slabs = m.array<uint32_t>(0);
  base_slabs[0] = base_slabs[2] = 5;     // key 5 twice
  m.array<uint32_t>(2)[0] = 1u << 3;     // slab 3 allocated, in no list
  base_slabs[31] = 7;                    // a link to slab 7, not allocated
  const auto bad = structures::slab_hash_invariants(view);
  auto has = [&](const std::string& what) {
    return std::any_of(bad.begin(), bad.end(), [&](const std::string& s) { return s.find(what) != std::string::npos; });
  };
  EXPECT_TRUE(has("key 5 has 2 live copies")) << testing::PrintToString(bad);
  EXPECT_TRUE(has("slab 3 is allocated but in no list")) << testing::PrintToString(bad);
  EXPECT_TRUE(has("links slab 7, which is not allocated")) << testing::PrintToString(bad);
}

}  // namespace
}  // namespace warpcheck
