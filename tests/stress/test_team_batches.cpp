// --record batch: a warp's round shares one stamp pair, intervals only
// widen, and the contended simulator runs stamped so are still decided.
#include <gtest/gtest.h>

#include <sstream>

#include "linearizability/checker.hpp"
#include "stress/seam/registry.hpp"
#include "stress/run/stress_session.hpp"
#include "linearizability/synthetic/synthetic_history.hpp"
#include "stress/run/team_batches.hpp"

namespace warpcheck {
namespace {

Operation op_at(uint32_t team, uint32_t lane, uint64_t call, uint64_t ret, uint32_t launch = 0) {
  Operation o;
  o.id = (uint64_t(launch) << 40) | (uint64_t(team) << 20) | (uint64_t(lane) << 8) | call;
  o.team = team, o.lane = lane, o.launch = launch, o.call = call, o.ret = ret;
  o.data.kind = OpKind::Contains;
  o.data.result_kind = ResultKind::Bool;
  return o;
}

TEST(TeamBatches, AWarpsRoundSharesItsEarliestInvocationAndLatestResponse) {
  History h;
  h.meta.model = ModelId::Set;
  // Team 0: lanes 0 and 1, two rounds each; team 1: one round; a second launch of team 0.
  h.ops = {op_at(0, 0, 10, 20), op_at(0, 1, 12, 25), op_at(0, 0, 30, 40), op_at(0, 1, 28, 31),
           op_at(1, 0, 5, 50),  op_at(0, 0, 100, 110, 1)};
  h.ops[3].ret = kPendingTime;  // round 2 of lane 1 never returned
  h.ops[3].data.pending = true;
  h.ops[3].data.result_kind = ResultKind::None;
  stamp_by_team_batch(h);
  EXPECT_EQ(h.ops[0].call, 10u); EXPECT_EQ(h.ops[0].ret, 25u);
  EXPECT_EQ(h.ops[1].call, 10u); EXPECT_EQ(h.ops[1].ret, 25u);
  EXPECT_EQ(h.ops[2].call, 28u); EXPECT_EQ(h.ops[2].ret, 40u);  // the completed one: the completed ones' latest
  EXPECT_EQ(h.ops[3].call, 28u); EXPECT_TRUE(h.ops[3].pending());
  EXPECT_EQ(h.ops[4].call, 5u);  EXPECT_EQ(h.ops[4].ret, 50u);   // another team: its own batch
  EXPECT_EQ(h.ops[5].call, 100u); EXPECT_EQ(h.ops[5].ret, 110u); // another launch: its own batch
}

TEST(TeamBatches, IntervalsOnlyWidenSoLinearizableHistoriesStaySo) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const SyntheticHistorySpec spec{.model = ModelId::Map, .operations = 400, .keys = 3, .seed = seed, .overlap = 8,
                                    .pending = 0.05};
    const History h = make_linearizable_history(spec);
    History batched = h;
    stamp_by_team_batch(batched);
    for (size_t i = 0; i < h.ops.size(); ++i) {
      ASSERT_LE(batched.ops[i].call, h.ops[i].call);
      if (!h.ops[i].pending()) {
        ASSERT_GE(batched.ops[i].ret, h.ops[i].ret);
      }
    }
    EXPECT_EQ(check_history(batched).verdict, Verdict::Linearizable) << "seed " << seed;
  }
}

TEST(TeamBatches, ContendedSimulatorRunsStampedByBatchAreDecided) {
  for (const char* structure : {"slab_hash", "sorted_set"}) {
    const Structure& s = *registry().find(structure);
    StressRequest r = request_from_flags(s, Backend::Sim, "--teams 16 --keys 4 --ops-per-lane 4 --seeds 3 --quiet --record batch");
    std::ostringstream out, err;
    EXPECT_EQ(run_stress_request(r, out, err), 0) << structure << ":\n" << out.str();
    EXPECT_NE(out.str().find("--record batch"), std::string::npos) << "the run's flags name the recording";
  }
}

}  // namespace
}  // namespace warpcheck
