// Rounds served by tiles of 16 lanes (two operations a warp step) and of
// 8 (four) (slab_hash::serve_round, structures/slab_hash/detail/
// tiled_round.hpp): the bulk driver over the slab hash with its mode fixed
// (slab_hash_fixed) and no per-operation recording, so that every round
// goes through the tiles. Random, PCT and targeted schedules; one bucket,
// so that the tiles of a warp and the warps race on the same lists, and
// lists grow (new slabs linked by a tile while the other tiles wait at the
// warp's allocation).
#include <gtest/gtest.h>

#include <string>

#include "support/slab_hash_sim.hpp"

namespace warpcheck {
namespace {

using structures::slab_hash;
using structures::slab_hash_fixed;
using structures::slab_hash_mode;
using test::run_bulk_in_simulator;
using test::small_table;

constexpr sim::SchedulerKind kSchedulers[] = {sim::SchedulerKind::Random, sim::SchedulerKind::Pct,
                                              sim::SchedulerKind::Targeted};

template <slab_hash_mode M, uint32_t Tile, int Launch = 0>
void tiled_rounds_under_many_schedules(uint64_t seeds, sim::MemoryModel memory_model = sim::MemoryModel::sc) {
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    SlabHashConfig c = small_table(M);
    c.teams = 3;
    c.keys = seed % 2 ? 8 : 48;  // hot keys, or lists of several slabs
    c.mix = parse_op_mix(seed % 4 < 2 ? "insert=45,erase=25,search=30" : "insert=70,erase=10,search=20");
    const uint32_t per_lane = seed % 5 == 0 ? 2 : 1;
    const HostMemory memory(slab_hash_layout(c));
    const slab_hash table = slab_hash_view(c, seed, memory.pointers());
    const std::string what = std::string(M == slab_hash_mode::map ? "map" : "multimap") + ", tiles of " + std::to_string(Tile);
    run_bulk_in_simulator(slab_hash_fixed<M, Launch, Tile>{table}, memory, c, seed, 2, per_lane, what.c_str(), kSchedulers[seed % 3],
                          memory_model);
    if (testing::Test::HasFatalFailure()) return;
    const auto broken = structures::slab_hash_invariants(table);
    ASSERT_TRUE(broken.empty()) << "seed " << seed << ": " << broken[0];
  }
}

TEST(SlabHashTiles, MapRoundsAreLinearizableUnderManySchedules) {
  tiled_rounds_under_many_schedules<slab_hash_mode::map, 16>(120);
  tiled_rounds_under_many_schedules<slab_hash_mode::map, 8>(120);
}

TEST(SlabHashTiles, MultimapRoundsAreLinearizableUnderManySchedules) {
  tiled_rounds_under_many_schedules<slab_hash_mode::multimap, 16>(80);
  tiled_rounds_under_many_schedules<slab_hash_mode::multimap, 8>(80);
}

// The same in the simulator's relaxed memory (docs/relaxed-memory.md): a
// load may see an older store where PTX allows it, so the tiles' orders
// (the guard's acquire and fence, the link's release) are what keep them
// right.
TEST(SlabHashTiles, RoundsAreLinearizableInRelaxedMemory) {
  tiled_rounds_under_many_schedules<slab_hash_mode::map, 8>(100, sim::MemoryModel::relaxed);
  tiled_rounds_under_many_schedules<slab_hash_mode::multimap, 8>(100, sim::MemoryModel::relaxed);
  // The guard's read side by acquire loads of the slab, no fence (issue 32).
  tiled_rounds_under_many_schedules<slab_hash_mode::multimap, 8, slab_hash::kGuardAcquireLoads>(50, sim::MemoryModel::relaxed);
}

// The inside-one-slab race (test_slab_hash.cpp's, for serve()) with each
// team's operation served as a round by tiles of `Tile` lanes, the delete
// guard's seqlock snapshot taken by the tile (or, planted, not): guarded,
// the search never answers absent while an instance was present at every
// moment; unguarded, the race shows as a violation in some seeds (the
// race is exercised).
template <uint32_t Tile, int Plant>
struct ServeAsRound {
  core::op_result operator()(sim::sim_team& t, const slab_hash& table, const core::workload_op& op,
                             slab_hash::lane_state& state) const {
    const slab_hash_fixed<slab_hash_mode::multimap, Plant, Tile> s{table};
    const bool mine = t.lane() == 0;  // lane 0 holds the team's operation
    const slab_hash::lane_op prepared =
        mine ? s.prepare(op.kind, static_cast<uint32_t>(op.key), static_cast<uint32_t>(op.value)) : slab_hash::lane_op{};
    return s.serve_round(t, prepared, mine, state);
  }
};

template <uint32_t Tile>
void torn_tile_read_never_answers_absent(uint64_t seeds) {
  int caught_without_guard = 0;
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    const auto targeted = sim::SchedulerKind::Targeted;  // preempted inside its read of the slab until writes tear it
    const test::DirectedRace guarded =
        test::directed_absent_race(test::inside_one_slab(), seed, structures::slab_hash_fix::kAll, targeted, ServeAsRound<Tile, 0>{});
    ASSERT_EQ(guarded.verdict, Verdict::Linearizable) << "tiles of " << Tile << ", seed " << seed;
    ASSERT_FALSE(guarded.search_absent) << "tiles of " << Tile << ", seed " << seed << ": an instance was present at every moment";
    if (seed % 4 == 0) {  // the guard read by acquire loads (issue 32): the same logic, a quarter of the seeds
      const test::DirectedRace by_acquire = test::directed_absent_race(
          test::inside_one_slab(), seed, structures::slab_hash_fix::kAll, targeted, ServeAsRound<Tile, slab_hash::kGuardAcquireLoads>{});
      ASSERT_EQ(by_acquire.verdict, Verdict::Linearizable) << "guard by acquire loads, tiles of " << Tile << ", seed " << seed;
      ASSERT_FALSE(by_acquire.search_absent) << "guard by acquire loads, tiles of " << Tile << ", seed " << seed;
    }
    const test::DirectedRace unguarded = test::directed_absent_race(
        test::inside_one_slab(), seed, structures::slab_hash_fix::kAll, targeted, ServeAsRound<Tile, slab_hash::kWithoutDeleteGuard>{});
    ASSERT_EQ(unguarded.search_absent, unguarded.verdict == Verdict::Violation) << "tiles of " << Tile << ", seed " << seed;
    caught_without_guard += unguarded.verdict == Verdict::Violation;
  }
  EXPECT_GT(caught_without_guard, 0) << "tiles of " << Tile << ": the torn read never happened: the race was not exercised";
  testing::Test::RecordProperty("violations_without_guard_tiles_of_" + std::to_string(Tile), caught_without_guard);
}

TEST(SlabHashTiles, TornTileReadNeverAnswersAbsentUnderTheDeleteGuard) {
  torn_tile_read_never_answers_absent<16>(1000);
  torn_tile_read_never_answers_absent<8>(1000);
}

}  // namespace
}  // namespace warpcheck
