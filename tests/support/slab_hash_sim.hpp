// The slab hash on the simulator, for tests: small tables, a simulator
// configuration, and the bulk driver (core::run_team_bulk) run and checked.
#pragma once
#include <gtest/gtest.h>

#include <vector>

#include "linearizability/checker.hpp"
#include "stress/recorder/batch_history.hpp"
#include "stress/slab_hash/config.hpp"
#include "structures/core/bulk_driver.hpp"

namespace warpcheck::test {

using structures::slab_hash_mode;
using structures::slab_hash_mutant;

inline SlabHashConfig small_table(slab_hash_mode mode, slab_hash_mutant m = slab_hash_mutant::none) {
  SlabHashConfig c;
  c.teams = 3;
  c.ops_per_lane = 2;
  c.keys = 8;
  c.mode = mode;
  c.mutant = m;
  return c;
}

inline sim::SimConfig sim_for(uint32_t teams, uint64_t seed, sim::SchedulerKind k = sim::SchedulerKind::Random) {
  sim::SimConfig s;
  s.teams = teams;
  s.seed = seed;
  s.scheduler = k;
  s.pct_steps = 100000;
  return s;
}

// The bulk driver (core::run_team_bulk) on the simulator: each lane's K
// operations from struct-of-arrays input, recorded per warp batch (one
// call and one ret stamp a warp, one result word an operation) or per
// operation, and the history joined from the inputs; the same structure
// code as run_team_ops runs, through prepare() and serve().
template <class Structure>
void run_bulk_in_simulator(const Structure& table, const HostMemory& memory, const SlabHashConfig& c, uint64_t seed, int record,
                           uint32_t per_lane, const char* what,
                           sim::SchedulerKind scheduler = sim::SchedulerKind::Random) {
  const WorkloadShape shape = slab_hash_shape(c);
  const auto ops = materialize(shape, generate_slots(shape, seed));
  std::vector<uint32_t> keys, values;
  std::vector<uint8_t> kinds;
  for (const auto& op : ops)
    if (op.active) {
      keys.push_back(static_cast<uint32_t>(op.key));
      values.push_back(static_cast<uint32_t>(op.value));
      kinds.push_back(static_cast<uint8_t>(op.kind));
    }
  core::bulk_input in;
  in.keys = keys.data();
  in.values = values.data();
  in.kinds = kinds.data();
  in.count = keys.size();
  const uint64_t per_team = uint64_t(32) * per_lane;
  const uint32_t teams = static_cast<uint32_t>((in.count + per_team - 1) / per_team);
  std::vector<uint64_t> stamps(2 * size_t(teams), batch_log::kNoStamp), results(in.count, 0);
  std::vector<uint32_t> out(in.count, 0);
  HostLog per_op(teams, static_cast<uint32_t>(per_team));
  batch_log batch;
  batch.stamps = stamps.data();
  batch.results = results.data();
  sim::Simulator simulator(sim_for(teams, seed, scheduler));
  memory.add_shadow_pools(simulator.shadow());
  const sim::RunReport r = simulator.run([&](sim::sim_team& t) {
    const uint64_t first = uint64_t(t.team_id()) * per_team;
    auto go = [&]<uint32_t K>() {
      core::run_team_bulk<K>(t, table, in, first, out.data(), record == 1 ? &per_op.view() : nullptr,
                             record == 2 ? &batch : nullptr);
    };
    if (per_lane == 1) go.template operator()<1>();
    else go.template operator()<2>();
  });
  ASSERT_TRUE(r.ok()) << what << " seed " << seed << ": " << r.message;
  HistoryMeta meta;
  meta.model = slab_hash_model(c);
  HostLog batch_records(teams, static_cast<uint32_t>(per_team));
  if (record == 2) {
    const uint64_t n = append_batch_launch(batch_records, {per_lane, in.count, stamps.data(), results.data()}, [&](uint64_t i) {
      return core::workload_op{keys[i], values[i], static_cast<OpKind>(kinds[i]), true};
    });
    ASSERT_EQ(n, in.count);
    for (uint32_t team = 0; team < teams; ++team) ASSERT_LT(stamps[2 * team], stamps[2 * team + 1]) << what;
    for (uint64_t i = 0; i < in.count; ++i) {
      ASSERT_TRUE(batch_log::done(results[i])) << what << " op " << i;
      const ResultKind k = batch_log::kind_of(results[i]);
      ASSERT_EQ(out[i], k == ResultKind::Value || k == ResultKind::Bool ? batch_log::value_of(results[i]) : core::kNoValue);
    }
  }
  const History h = history_from_log(record == 2 ? batch_records : per_op, meta);
  ASSERT_EQ(h.ops.size(), in.count) << what;
  const CheckResult check = check_history(h);
  ASSERT_EQ(check.verdict, Verdict::Linearizable) << what << " seed " << seed << ": " << check.reason;
}

}  // namespace warpcheck::test
