// The simulator back-end: SIMT collectives, determinism, replay, PCT, the
// deadlock detector, shadow state and bounded everything.
#include <gtest/gtest.h>
#include "support/property.hpp"

#include <atomic>
#include <functional>
#include <numeric>

#include "structures/core/sim/scheduler.hpp"
#include "structures/core/sim/sim_team.hpp"
#include "support/depth_two_bug.hpp"
#include "structures/core/spin.hpp"

namespace warpcheck::sim {
namespace {

SimConfig shape(uint32_t teams, uint32_t lanes, uint64_t seed = 1) {
  SimConfig c;
  c.teams = teams;
  c.lanes = lanes;
  c.seed = seed;
  return c;
}

// ---- collectives ----

WC_PROP(SimCollectives, MatchCudaSemantics, 10000, ()) {
  const uint32_t lanes = *rc::gen::inRange<uint32_t>(1, 33);
  const auto preds = *rc::gen::container<std::vector<bool>>(lanes, rc::gen::arbitrary<bool>());
  const auto values = *rc::gen::container<std::vector<int64_t>>(lanes, rc::gen::arbitrary<int64_t>());
  const auto srcs = *rc::gen::container<std::vector<uint32_t>>(lanes, rc::gen::inRange<uint32_t>(0, 64));
  uint32_t mask = 0;
  for (uint32_t i = 0; i < lanes; ++i) mask |= uint32_t(preds[i]) << i;
  std::vector<int> bad(lanes, 0);
  Simulator sim(shape(1, lanes, *rc::gen::arbitrary<uint64_t>()));
  const RunReport r = sim.run([&](sim_team& t) {
    const uint32_t l = t.lane();
    bad[l] += t.ballot(preds[l]) != mask;
    bad[l] += t.any(preds[l]) != (mask != 0);
    bad[l] += t.all(preds[l]) != (std::popcount(mask) == int(lanes));
    bad[l] += t.count(preds[l]) != uint32_t(std::popcount(mask));
    bad[l] += t.shfl(values[l], srcs[l]) != values[srcs[l] % lanes];  // CUDA: source lane modulo width
    t.sync();
  });
  RC_ASSERT(r.ok());
  RC_ASSERT(std::accumulate(bad.begin(), bad.end(), 0) == 0);
}

TEST(SimCollectives, BlockSizedTeamsBarrierCountAndBroadcast) {
  constexpr uint32_t kLanes = 96;  // three warps' worth, one team
  Simulator sim(shape(2, kLanes, 9));
  std::vector<int> bad(2 * kLanes, 0);
  const RunReport r = sim.run([&](sim_team& t) {
    const uint32_t l = t.lane();
    bad[t.global_lane()] += t.count(l % 3 == 0) != kLanes / 3;
    bad[t.global_lane()] += t.any(l == 95) != true;
    bad[t.global_lane()] += t.all(l < 95) != false;
    bad[t.global_lane()] += t.shfl(uint64_t(l) * 7, 80) != 80 * 7;
    t.sync();
  });
  EXPECT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(std::accumulate(bad.begin(), bad.end(), 0), 0);
  Simulator wide(shape(1, 64));
  const RunReport b = wide.run([](sim_team& t) { t.ballot(true); });
  EXPECT_EQ(b.outcome, Outcome::LaneError);
  EXPECT_NE(b.message.find("ballot on a team of more than 32 lanes"), std::string::npos);
}

TEST(SimCollectives, DivergentCollectivesAreReported) {
  Simulator sim(shape(1, 2));
  const RunReport r = sim.run([](sim_team& t) {
    if (t.lane() == 0) t.ballot(true);
    else t.sync();
  });
  EXPECT_EQ(r.outcome, Outcome::Divergence);
  EXPECT_NE(r.message.find("ballot"), std::string::npos);
  EXPECT_NE(r.message.find("sync"), std::string::npos);
}

TEST(SimCollectives, ALaneThatLeavesStrandsItsTeam) {
  Simulator sim(shape(1, 4));
  const RunReport r = sim.run([](sim_team& t) {
    if (t.lane() != 2) t.sync();
  });
  EXPECT_EQ(r.outcome, Outcome::Stuck);
  EXPECT_NE(r.details.find("waiting at sync"), std::string::npos) << r.details;
}

// ---- determinism and replay ----

// Two teams increment a shared counter non-atomically (load, then store):
// the final value and the per-lane observations depend on the interleaving.
struct RacyCounter {
  uint32_t counter = 0;
  std::vector<uint32_t> seen;
  explicit RacyCounter(uint32_t lanes) : seen(lanes * 4) {}
  void body(sim_team& t) {
    for (int i = 0; i < 4; ++i) {
      const uint32_t v = t.load(&counter, core::order::relaxed, core::scope::gpu);
      t.store(&counter, v + 1, core::order::relaxed, core::scope::gpu);
      seen[t.global_lane() * 4 + i] = v;
    }
  }
};

RunReport run_racy(SimConfig c, RacyCounter& rc) {
  Simulator sim(c);
  return sim.run([&](sim_team& t) { rc.body(t); });
}

TEST(SimDeterminism, SameSeedSameScheduleAndEffects) {
  for (SchedulerKind k : {SchedulerKind::Random, SchedulerKind::Pct}) {
    SimConfig c = shape(3, 4, 42);
    c.scheduler = k;
    c.pct_steps = 100;
    RacyCounter a(12), b(12);
    const RunReport ra = run_racy(c, a), rb = run_racy(c, b);
    ASSERT_TRUE(ra.ok() && rb.ok());
    EXPECT_EQ(ra.schedule, rb.schedule);
    EXPECT_EQ(a.seen, b.seen);
    EXPECT_EQ(a.counter, b.counter);
  }
}

TEST(SimDeterminism, DifferentSeedsDifferentSchedules) {
  std::set<Schedule> schedules;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    RacyCounter rc(12);
    schedules.insert(run_racy(shape(3, 4, seed), rc).schedule);
  }
  EXPECT_EQ(schedules.size(), 20u);
}

TEST(SimReplay, PrintedScheduleReplaysExactly) {
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    RacyCounter original(12);
    const RunReport r = run_racy(shape(3, 4, seed), original);
    SimConfig c = shape(3, 4, /*a different seed: the schedule alone decides*/ seed + 1000);
    c.replay = encode_schedule(r.schedule);
    RacyCounter replayed(12);
    const RunReport rr = run_racy(c, replayed);
    ASSERT_TRUE(rr.ok()) << rr.message;
    EXPECT_EQ(rr.schedule, r.schedule);
    EXPECT_EQ(replayed.seen, original.seen);
  }
}

TEST(SimReplay, AScheduleThatDoesNotFitIsReportedNotFollowed) {
  RacyCounter rc(12);
  const RunReport r = run_racy(shape(3, 4, 5), rc);
  SimConfig c = shape(2, 4);  // fewer lanes than the schedule names
  c.replay = encode_schedule(r.schedule);
  RacyCounter other(8);
  EXPECT_EQ(run_racy(c, other).outcome, Outcome::ReplayMismatch);
  Schedule cut(r.schedule.begin(), r.schedule.begin() + 10);
  c = shape(3, 4);
  c.replay = encode_schedule(cut);
  RacyCounter third(12);
  const RunReport short_run = run_racy(c, third);
  EXPECT_EQ(short_run.outcome, Outcome::ReplayMismatch);
  EXPECT_NE(short_run.message.find("ends at step 10"), std::string::npos) << short_run.message;
}

WC_PROP(SimReplay, ScheduleStringsRoundTrip, 10000, ()) {
  const auto s = *rc::gen::container<Schedule>(rc::gen::inRange<uint32_t>(0, 5));
  RC_ASSERT(decode_schedule(encode_schedule(s)) == s);
}

TEST(SimReplay, MalformedScheduleStringsAreClearErrors) {
  for (const char* bad : {"", "wcs2:1", "wcs1:1,", "wcs1:a", "wcs1:1*0", "wcs1:1;2", "wcs1:99999999999"})
    EXPECT_THROW(decode_schedule(bad), std::invalid_argument) << bad;
  EXPECT_EQ(decode_schedule("wcs1:"), Schedule{});
  EXPECT_EQ(decode_schedule("wcs1:3*2,0"), (Schedule{3, 3, 0}));
}

// ---- PCT ----

// A depth-2 ordering bug: B's 20 loads must all fall between A's two
// stores. Uniform random scheduling needs B to win about 20 coin flips in a
// row; PCT needs A to start above B and one change point right after A's
// first store: probability 1/(n k) for n = 2 lanes, k steps.
TEST(SimPct, FindsADepthTwoBugWithinItsExpectedRuns) {
  constexpr uint32_t n = 2;
  constexpr uint64_t k = 24;  // steps of one run: 2 starts, 2 stores, 20 loads
  const uint64_t bound = n * k;  // expected runs for depth 2: n * k^(d-1)
  const uint64_t runs = 20 * bound;
  uint64_t pct_hits = 0, random_hits = 0, first_hit = 0;
  for (uint64_t seed = 1; seed <= runs; ++seed) {
    SimConfig c = shape(2, 1, seed);
    c.scheduler = SchedulerKind::Pct;
    c.pct_depth = 2;
    c.pct_steps = k;
    if (depth_two_bug(c) && !pct_hits++) first_hit = seed;
    random_hits += depth_two_bug(shape(2, 1, seed));
  }
  EXPECT_GT(first_hit, 0u);
  EXPECT_LE(first_hit, 3 * bound) << "PCT's first hit came late";
  // PCT's guarantee is a probability of at least 1/(n k) per run; here it is
  // exactly that (A above B, and the change point on A's second store), so
  // 20 * n * k runs expect 20 hits. The seeds are fixed: the count is too.
  EXPECT_GE(pct_hits, runs / bound / 2) << pct_hits << " hits in " << runs;
  EXPECT_LT(random_hits, pct_hits / 10) << "uniform random found it about as often: not a depth-2 test";
}

// ---- deadlocks and bounds ----

TEST(SimDeadlock, TwoLocksInOppositeOrderReportTheCycle) {
  int deadlocks = 0, completed = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    uint32_t locks[2] = {0, 0};
    SimConfig c = shape(2, 1, seed);
    c.spin_bound = 200;
    Simulator sim(c);
    sim.shadow().add_pool(locks, sizeof(uint32_t), 2, "locks", core::unit_state::allocated);
    const RunReport r = sim.run([&](sim_team& t) {
      uint32_t* first = &locks[t.team_id()];
      uint32_t* second = &locks[1 - t.team_id()];
      if (!core::lock_owned(t, first)) return;
      if (!core::lock_owned(t, second)) return;
      core::unlock_owned(t, second);
      core::unlock_owned(t, first);
    });
    if (r.ok()) {
      ++completed;
      continue;
    }
    ++deadlocks;
    ASSERT_EQ(r.outcome, Outcome::SpinBound) << r.message;
    ASSERT_EQ(r.wait_cycle.size(), 2u) << r.details;
    // One-lane teams are threads, named as such.
    EXPECT_NE(r.details.find("  thread 0: spinning on locks[1] (") , std::string::npos) << r.details;
    EXPECT_NE(r.details.find("  thread 1: spinning on locks[0] ("), std::string::npos) << r.details;
    EXPECT_NE(r.details.find("held by thread 1"), std::string::npos) << r.details;
    EXPECT_NE(r.details.find("wait-for cycle"), std::string::npos) << r.details;
  }
  EXPECT_GT(deadlocks, 0);
  EXPECT_GT(completed, 0) << "every seed deadlocked: the detector may be reporting runs that would finish";
}

TEST(SimBounds, ASpinWithoutTheSpinApiHitsTheStepLimit) {
  SimConfig c = shape(1, 1);
  c.max_steps = 10000;
  uint32_t never = 0;
  Simulator sim(c);
  const RunReport r = sim.run([&](sim_team& t) {
    while (t.load(&never, core::order::relaxed, core::scope::gpu) == 0) {
    }
  });
  EXPECT_EQ(r.outcome, Outcome::StepLimit);
  EXPECT_EQ(r.steps, 10000u);
}

TEST(SimBounds, ALaneExceptionStopsTheRunWithItsMessage) {
  Simulator sim(shape(2, 2));
  const RunReport r = sim.run([](sim_team& t) {
    t.sync();
    if (t.team_id() == 1 && t.lane() == 1) throw std::runtime_error("invariant broken");
    t.sync();
  });
  EXPECT_EQ(r.outcome, Outcome::LaneError);
  EXPECT_NE(r.message.find("team 1 lane 1: invariant broken"), std::string::npos) << r.message;
}

TEST(SimBounds, ImpossibleConfigurationsAreRejected) {
  EXPECT_THROW(Simulator(shape(0, 32)), std::invalid_argument);
  EXPECT_THROW(Simulator(shape(4096, 32)), std::invalid_argument);
  SimConfig c = shape(1, 1);
  c.scheduler = SchedulerKind::Pct;
  c.pct_steps = 0;
  EXPECT_THROW(Simulator{c}, std::invalid_argument);
}

// ---- coalesced loads ----

// A team's load of 32 words is two 128-byte transactions: a writer's two
// stores can fall between them (the read is torn across entries 15 and 16),
// never inside one (entries 0 and 1 are one transaction). The writer is one
// lane storing 16 then 15, later 1 then 0, while the reader team reads on.
struct TornCount {
  int across = 0, inside = 0;
};
TornCount coalesced_tears(uint64_t seed, double delays) {
  alignas(256) static uint64_t words[32];
  std::fill(std::begin(words), std::end(words), 0);
  SimConfig c = shape(2, 32, seed);
  c.delay_probability = delays;
  c.delay_steps = 200;
  Simulator sim(c);
  TornCount out;
  uint64_t pad = 0;
  const RunReport r = sim.run([&](sim_team& t) {
    if (t.team_id() == 0) {
      if (t.lane() != 0) return;
      for (uint32_t pair : {16u, 1u}) {
        for (uint64_t i = seed % 50; i > 0; --i) (void)t.load(&pad, core::order::relaxed, core::scope::gpu);  // a seeded start
        t.store(&words[pair], uint64_t(1), core::order::relaxed, core::scope::gpu);
        t.store(&words[pair - 1], uint64_t(1), core::order::relaxed, core::scope::gpu);
      }
      return;
    }
    for (int i = 0; i < 60; ++i) {
      const uint64_t mine = t.load_coalesced(&words[t.lane()], core::order::relaxed, core::scope::gpu);
      const uint64_t w15 = t.shfl(mine, 15u), w16 = t.shfl(mine, 16u), w0 = t.shfl(mine, 0u), w1 = t.shfl(mine, 1u);
      if (t.lane() == 0) {
        out.across += w15 && !w16;
        out.inside += w0 && !w1;
      }
    }
  });
  EXPECT_TRUE(r.ok()) << r.message << "\n" << r.details;
  return out;
}

TEST(SimCoalescedLoad, TearsBetweenTransactionsNeverInsideOne) {
  for (double delays : {0.0, 0.2}) {
    TornCount total;
    for (uint64_t seed = 1; seed <= 200; ++seed) {
      const TornCount t = coalesced_tears(seed, delays);
      total.across += t.across;
      total.inside += t.inside;
    }
    EXPECT_GT(total.across, 0) << "delays " << delays << ": no read fell between the two transactions in 200 seeds";
    EXPECT_EQ(total.inside, 0) << "delays " << delays << ": a 128-byte transaction was torn";
    RecordProperty(delays > 0 ? "torn_with_delays" : "torn_without_delays", total.across);
  }
}

// Delays after a lane's load (--delay-loads): the team sits out between its
// lanes' plain loads, so a writer's two stores fall between them. The writer
// stores y then x; a reader whose lane 0 saw x = 1 while lane 1 saw y = 0
// read y before the stores and x after both.
struct TornReads {
  int torn = 0;          // reads that saw x = 1 and y = 0
  uint64_t preemptions = 0;
};
TornReads plain_load_tears(uint64_t seed, const std::function<void(SimConfig&)>& scheduling, uint64_t start = 0,
                           int reads = 40) {
  alignas(128) static uint64_t words[2];  // x, y: one 128-byte line, one object
  uint64_t& x = words[0];
  uint64_t& y = words[1];
  x = y = 0;
  SimConfig c = shape(2, 2, seed);
  scheduling(c);
  Simulator sim(c);
  TornReads out;
  uint64_t pad = 0;
  const RunReport r = sim.run([&](sim_team& t) {
    if (t.team_id() == 0) {
      if (t.lane() != 0) return;
      for (uint64_t i = start + seed % 40; i > 0; --i) (void)t.load(&pad, core::order::relaxed, core::scope::gpu);  // a seeded start
      t.store(&y, uint64_t(1), core::order::relaxed, core::scope::gpu);
      t.store(&x, uint64_t(1), core::order::relaxed, core::scope::gpu);
      return;
    }
    for (int i = 0; i < reads; ++i) {
      const uint64_t mine = t.load(t.lane() == 0 ? &x : &y, core::order::relaxed, core::scope::gpu);
      const uint64_t seen_y = t.shfl(mine, 1u);
      if (t.lane() == 0) out.torn += mine && !seen_y;
    }
  });
  EXPECT_TRUE(r.ok()) << r.message << "\n" << r.details;
  out.preemptions = sim.preemptions();
  return out;
}

std::function<void(SimConfig&)> delays(bool after_loads) {
  return [after_loads](SimConfig& c) {
    c.delay_probability = 0.2;
    c.delay_steps = 50;
    c.delay_after_loads = after_loads;
  };
}

TEST(SimDelays, AfterLoadsTearATeamsReadBetweenItsLanes) {
  int without = 0, with = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    without += plain_load_tears(seed, delays(false)).torn;
    with += plain_load_tears(seed, delays(true)).torn;
  }
  EXPECT_GT(with, 2 * without + 10) << "delays after loads tore " << with << " reads, without them " << without;
  RecordProperty("torn_with_delay_loads", with);
  RecordProperty("torn_without", without);
}

// The targeted scheduler: the reader, about to load the second word of the
// line it is reading, sits out until other teams' writes tear that read (a
// write to a word it has read, y, then one to a word it has yet to read,
// x). The writer stores after a long seeded start: a delay of fixed length
// rarely holds the reader between its loads exactly when the two stores,
// one step apart, happen; a targeted preemption waits for them. (When the
// reader took x first, the stores do not tear its read: it waits in vain
// until the writer is done.)
TEST(SimTargeted, PreemptsInsideAReadUntilAWriterTearsIt) {
  constexpr uint64_t kStart = 300;  // the writer's loads before its stores
  constexpr int kReads = 200;
  int delayed = 0, targeted = 0;
  uint64_t preemptions = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    delayed += plain_load_tears(seed, delays(true), kStart, kReads).torn;
    const TornReads t = plain_load_tears(
        seed,
        [](SimConfig& c) {
          c.scheduler = SchedulerKind::Targeted;
          c.preempt_reads = 0.2;
        },
        kStart, kReads);
    targeted += t.torn;
    preemptions += t.preemptions;
  }
  EXPECT_GT(preemptions, 0u);
  EXPECT_GT(targeted, 80) << "targeted tore " << targeted << " of 200 runs' reads";  // at most half: the reader takes y first
  EXPECT_GT(targeted, 2 * delayed) << "targeted tore " << targeted << " reads, delays after loads " << delayed;
  RecordProperty("torn_targeted", targeted);
  RecordProperty("torn_delay_loads", delayed);
}

// ---- shadow state ----

struct Pool {
  uint64_t units[4] = {};
};

RunReport run_pool(const std::function<void(sim_team&, Pool&)>& body, Pool& pool) {
  Simulator sim(shape(2, 1, 3));
  sim.shadow().add_pool(pool.units, sizeof(uint64_t), 4, "node pool", core::unit_state::uninitialized);
  return sim.run([&](sim_team& t) { body(t, pool); });
}

TEST(SimShadow, AccessToAFreedUnitIsReported) {
  Pool pool;
  uint32_t freed = 0;
  const RunReport r = run_pool(
      [&](sim_team& t, Pool& p) {
        if (t.team_id() == 0) {
          t.shadow_mark(&p.units[1], core::unit_state::allocated);
          t.store(&p.units[1], uint64_t(7), core::order::relaxed, core::scope::gpu);
          t.shadow_mark(&p.units[1], core::unit_state::freed);
          t.store(&freed, 1u, core::order::release, core::scope::gpu);
        } else {
          core::bounded_spin<sim_team> spin(t, &freed);
          while (t.load(&freed, core::order::acquire, core::scope::gpu) == 0) spin.again();
          t.load(&p.units[1], core::order::relaxed, core::scope::gpu);  // a use after free
        }
      },
      pool);
  ASSERT_EQ(r.outcome, Outcome::ShadowViolation) << r.message;
  ASSERT_TRUE(r.violation.has_value());
  EXPECT_EQ(r.violation->pool, "node pool");
  EXPECT_EQ(r.violation->unit, 1u);
  EXPECT_EQ(r.violation->state, core::unit_state::freed);
  EXPECT_EQ(r.violation->access, core::access::load);
  EXPECT_EQ(r.team, 1u);
  EXPECT_NE(r.message.find("load of node pool[1], a freed unit, at step"), std::string::npos) << r.message;
}

TEST(SimShadow, RetiredUnitsAllowLoadsButNotWrites) {
  Pool pool;
  const RunReport ok = run_pool(
      [](sim_team& t, Pool& p) {
        if (t.team_id() != 0) return;
        t.shadow_mark(&p.units[2], core::unit_state::retired);
        t.load(&p.units[2], core::order::relaxed, core::scope::gpu);  // a traversal passing a zombie: allowed
      },
      pool);
  EXPECT_TRUE(ok.ok()) << ok.message;
  const RunReport bad = run_pool(
      [](sim_team& t, Pool& p) {
        if (t.team_id() != 0) return;
        t.shadow_mark(&p.units[2], core::unit_state::retired);
        t.cas(&p.units[2], uint64_t(0), uint64_t(1), core::order::relaxed, core::scope::gpu);  // writing through a zombie
      },
      pool);
  ASSERT_EQ(bad.outcome, Outcome::ShadowViolation);
  EXPECT_EQ(bad.violation->state, core::unit_state::retired);
  EXPECT_EQ(bad.violation->access, core::access::rmw);
}

TEST(SimShadow, NeverAllocatedUnitsAreReported) {
  Pool pool;
  const RunReport r = run_pool([](sim_team& t, Pool& p) { t.store(&p.units[3], uint64_t(1), core::order::relaxed, core::scope::gpu); }, pool);
  ASSERT_EQ(r.outcome, Outcome::ShadowViolation);
  EXPECT_EQ(r.violation->state, core::unit_state::uninitialized);
  EXPECT_EQ(r.violation->unit, 3u);
}

}  // namespace
}  // namespace warpcheck::sim
