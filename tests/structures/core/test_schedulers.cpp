// The scheduler plug-ins: the registry's declarations, and POS (partial
// order sampling): deterministic per seed, replayable, finding races, and
// fair to lock holders while others spin.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "structures/core/sim/schedulers/registry.hpp"
#include "structures/core/sim/sim_team.hpp"
#include "support/depth_two_bug.hpp"
#include "structures/core/spin.hpp"

namespace warpcheck::sim {
namespace {

SimConfig shape(uint32_t teams, uint32_t lanes, uint64_t seed, SchedulerKind k = SchedulerKind::Pos) {
  SimConfig c;
  c.teams = teams;
  c.lanes = lanes;
  c.seed = seed;
  c.scheduler = k;
  return c;
}

TEST(SchedulerRegistry, EachDeclaresItselfOnceWithItsOptions) {
  std::set<std::string_view> names, options;
  for (const SchedulerInfo* s : schedulers()) {
    EXPECT_TRUE(names.insert(s->name).second) << s->name;
    EXPECT_FALSE(s->summary.empty()) << s->name;
    EXPECT_NE(s->make, nullptr) << s->name;
    for (const SchedulerOption& o : s->options) {
      EXPECT_FALSE(o.help.empty()) << o.name;
      if (o.type == SchedulerOption::Type::choice && !o.default_value.empty()) {
        EXPECT_NE(std::find(o.choices.begin(), o.choices.end(), o.default_value), o.choices.end()) << o.name;
      }
    }
  }
  for (const char* name : {"random", "pct", "targeted", "guided", "pos", "replay"}) EXPECT_TRUE(names.count(name)) << name;
  EXPECT_FALSE(scheduler_named("replay").chosen_by_name);  // chosen by a schedule to replay
  EXPECT_THROW(scheduler_named("fifo"), std::invalid_argument);
  SimConfig c = shape(1, 1, 1, SchedulerKind{"fifo"});
  EXPECT_THROW(Simulator{c}, std::invalid_argument);
  c = shape(1, 1, 1);
  c.scheduler_options["pos-variant"] = "sometimes";
  EXPECT_THROW(Simulator{c}, std::invalid_argument);
  c = shape(1, 1, 1);
  c.scheduler_options["pos-unit"] = "warp";
  EXPECT_THROW(Simulator{c}, std::invalid_argument);
}

// Two teams' lanes increment a counter with a load and a store: lost
// updates and the values each lane saw depend on the interleaving.
struct Racy {
  uint32_t counter = 0;
  std::vector<uint32_t> seen;
  explicit Racy(uint32_t lanes) : seen(lanes * 4) {}
};
RunReport run_racy(const SimConfig& c, Racy& r) {
  Simulator sim(c);
  return sim.run([&](sim_team& t) {
    for (int i = 0; i < 4; ++i) {
      const uint32_t v = t.load(&r.counter, core::order::relaxed, core::scope::gpu);
      t.store(&r.counter, v + 1, core::order::relaxed, core::scope::gpu);
      r.seen[t.global_lane() * 4 + i] = v;
      if (i == 1) t.sync();
    }
  });
}

TEST(SchedulerPos, SameSeedSameScheduleAndAPrintedScheduleReplays) {
  std::set<Schedule> distinct;
  for (const char* variant : {"pos", "basic"})
    for (uint64_t seed = 1; seed <= 10; ++seed) {
      SimConfig c = shape(3, 4, seed);
      c.scheduler_options["pos-variant"] = variant;
      c.scheduler_options["pos-unit"] = seed % 2 ? "team" : "lane";
      Racy a(12), b(12), replayed(12);
      const RunReport ra = run_racy(c, a), rb = run_racy(c, b);
      ASSERT_TRUE(ra.ok() && rb.ok()) << ra.message << rb.message;
      EXPECT_EQ(ra.schedule, rb.schedule);
      EXPECT_EQ(a.seen, b.seen);
      distinct.insert(ra.schedule);
      SimConfig again = shape(3, 4, seed + 1000);  // the schedule alone decides
      again.replay = encode_schedule(ra.schedule);
      const RunReport rr = run_racy(again, replayed);
      ASSERT_TRUE(rr.ok()) << rr.message;
      EXPECT_EQ(replayed.seen, a.seen);
    }
  EXPECT_GE(distinct.size(), 15u);
}

TEST(SchedulerPos, FindsLostUpdates) {
  int lost = 0;
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    Racy r(4);
    ASSERT_TRUE(run_racy(shape(2, 2, seed), r).ok());
    lost += r.counter < 16;
  }
  EXPECT_GT(lost, 10) << "POS lost an update in " << lost << " of 50 runs";
  RecordProperty("lost_of_50", lost);
}

// The depth-two bug of SimPct (test_simulator.cpp): B's 20 loads all
// between A's two stores. Uniform random needs B to win 20 coin flips in a
// row. BasicPOS draws A's second store one priority, which B's loads (each
// a new event) beat with chance 1 - p each: about 1 in 21 runs over p. Full
// POS redraws that store's priority at each racing load: a coin flip a
// load, as random (the paper's point is that it samples the orders of
// racing events uniformly, not that it favours this one).
TEST(SchedulerPos, BasicPosFindsTheDepthTwoBugThatRandomMisses) {
  int basic = 0, pos = 0, random = 0;
  for (uint64_t seed = 1; seed <= 600; ++seed) {
    SimConfig c = shape(2, 1, seed);
    pos += depth_two_bug(c);
    c.scheduler_options["pos-variant"] = "basic";
    basic += depth_two_bug(c);
    random += depth_two_bug(shape(2, 1, seed, SchedulerKind::Random));
  }
  EXPECT_GE(basic, 8) << "BasicPOS: " << basic << " of 600";
  EXPECT_LT(random, 2);
  RecordProperty("basic_pos", basic);
  RecordProperty("pos", pos);
  RecordProperty("random", random);
}

// Teams take a spin lock in turn (lane 0 of each; the other lane waits at
// the team's sync). A spinner's team keeps a fresh priority only for its
// re-read; at each spin it drops below everyone, so the holder goes on:
// every run completes, far inside the spin bound.
TEST(SchedulerPos, SpinnersDoNotStarveTheLockHolder) {
  for (const char* variant : {"pos", "basic"})
    for (uint64_t seed = 1; seed <= 30; ++seed) {
      SimConfig c = shape(4, 2, seed);
      c.scheduler_options["pos-variant"] = variant;
      c.scheduler_options["pos-unit"] = seed % 2 ? "team" : "lane";
      c.spin_bound = 2000;
      c.max_steps = 200000;
      uint32_t lock = 0, counter = 0;
      Simulator sim(c);
      const RunReport r = sim.run([&](sim_team& t) {
        for (int i = 0; i < 3; ++i) {
          if (t.lane() == 0) {
            if (!core::lock_owned(t, &lock)) return;
            const uint32_t v = t.load(&counter, core::order::relaxed, core::scope::gpu);
            for (int k = 0; k < 5; ++k) (void)t.load(&counter, core::order::relaxed, core::scope::gpu);
            t.store(&counter, v + 1, core::order::relaxed, core::scope::gpu);
            core::unlock_owned(t, &lock);
          }
          t.sync();
        }
      });
      ASSERT_TRUE(r.ok()) << variant << " seed " << seed << ": " << r.message << "\n" << r.details;
      EXPECT_EQ(counter, 12u);
    }
}

}  // namespace
}  // namespace warpcheck::sim
