#include "stress/slab_hash_target.hpp"

#include <stdexcept>

namespace warpcheck {

void register_shadow_pools(sim::Simulator& s, SlabHashMemory& memory, const SlabHashConfig& c) {
  auto& shadow = s.shadow();
  shadow.add_pool(memory.slabs.data(), 128, memory.slabs.size() / 32, "slabs", core::unit_state::uninitialized);
  shadow.add_pool(memory.base_slabs.data(), 128, c.buckets, "base slabs", core::unit_state::allocated);
  shadow.add_pool(memory.bitmaps.data(), 128, memory.bitmaps.size() / 32, "bitmaps", core::unit_state::allocated);
}

std::string describe_config(const SlabHashConfig& c, const sim::SimConfig& s) {
  return "{\"structure\":\"slabhash\",\"backend\":\"sim\",\"mode\":\"" +
         std::string(c.mode == structures::slab_hash_mode::map ? "map" : "multimap") + "\",\"teams\":" +
         std::to_string(c.teams) + ",\"ops_per_lane\":" + std::to_string(c.ops_per_lane) + ",\"keys\":" +
         std::to_string(c.keys) + ",\"buckets\":" + std::to_string(c.buckets) + ",\"mix\":\"" + format_op_mix(c.mix) +
         "\",\"mutant\":\"" + slab_hash_mutant_name(c.mutant) + "\",\"scheduler\":\"" +
         (s.scheduler == sim::SchedulerKind::Pct ? "pct" : "random") + "\"}";
}

SlabHashRun run_slab_hash_sim(const SlabHashConfig& c, const sim::SimConfig& sim) {
  return run_slab_hash_sim(c, sim, make_workload(slab_hash_workload(c, sim.seed)));
}

SlabHashRun run_slab_hash_sim(const SlabHashConfig& c, const sim::SimConfig& sim, const std::vector<core::workload_op>& ops) {
  validate(c);
  if (sim.teams != c.teams || sim.lanes != 32) throw std::invalid_argument("slabhash: simulator shape must be teams x 32");
  if (ops.size() != size_t(c.teams) * 32 * c.ops_per_lane) throw std::invalid_argument("slabhash: workload size does not fit the shape");
  for (const auto& op : ops)
    if (op.active && (op.key < 0 || op.key > structures::slab_hash::kMaxKey))
      throw std::invalid_argument("slabhash: key " + std::to_string(op.key) + " is a reserved word (empty or deleted)");
  SlabHashMemory memory(c);
  const structures::slab_hash table = memory.view(c, sim.seed);
  HistoryMeta meta;
  meta.model = c.mode == structures::slab_hash_mode::map ? ModelId::Map : ModelId::Multimap;
  meta.seed = sim.seed;
  meta.config = describe_config(c, sim);
  const uint32_t capacity = c.log_capacity ? c.log_capacity : 32 * c.ops_per_lane;
  SlabHashRun out;
  out.run = run_in_simulator(table, {&ops, c.ops_per_lane, capacity, meta}, sim,
                             [&](sim::Simulator& s) { register_shadow_pools(s, memory, c); });
  if (out.run.report.ok()) out.invariant_violations = check_slab_hash_invariants(memory, table);
  return out;
}

}  // namespace warpcheck
