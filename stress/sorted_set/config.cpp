#include "stress/sorted_set/config.hpp"

#include <stdexcept>

namespace warpcheck {

using structures::sorted_set;

void validate(const SortedSetConfig& c) {
  auto fail = [](const std::string& m) { throw std::invalid_argument("sorted_set: " + m); };
  if (c.teams == 0 || c.ops_per_lane == 0) fail("teams and ops per lane must be at least 1");
  if (c.buckets == 0) fail("buckets must be at least 1");
  if (c.keys <= 0 || c.keys > INT32_MAX) fail("keys must be in [1, 2^31)");
  if (c.keys > int64_t(c.buckets) * sorted_set::kSlots)
    fail("keys (" + std::to_string(c.keys) + ") exceed 32 per bucket (" + std::to_string(c.buckets) +
         " buckets): a bucket could overflow");
}

WorkloadShape sorted_set_shape(const SortedSetConfig& c) { return c.shape(); }

MemoryLayout sorted_set_layout(const SortedSetConfig& c) {
  return {{"bucket locks", sizeof(uint32_t), c.buckets, 0, core::unit_state::allocated},
          {"bucket sizes", sizeof(uint32_t), c.buckets, 0, core::unit_state::allocated},
          {"buckets", sizeof(int32_t) * sorted_set::kSlots, c.buckets, 0, core::unit_state::allocated}};
}

sorted_set sorted_set_view(const SortedSetConfig& c, ArrayPointers a) {
  return {static_cast<uint32_t*>(a[0]), static_cast<uint32_t*>(a[1]), static_cast<int32_t*>(a[2]), c.buckets, c.mutant};
}

TargetRun run_sorted_set_sim(const SortedSetConfig& c, const sim::SimConfig& sim) {
  const WorkloadShape shape = sorted_set_shape(c);
  return run_sorted_set_sim(c, sim, materialize(shape, generate_slots(shape, sim.seed)));
}

TargetRun run_sorted_set_sim(const SortedSetConfig& c, const sim::SimConfig& sim, const std::vector<core::workload_op>& ops) {
  validate(c);
  if (sim.teams != c.teams || sim.lanes != 32) throw std::invalid_argument("sorted_set: simulator shape must be teams x 32");
  if (ops.size() != size_t(c.teams) * 32 * c.ops_per_lane) throw std::invalid_argument("sorted_set: workload size does not fit the shape");
  const HostMemory memory(sorted_set_layout(c));
  HistoryMeta meta;
  meta.model = ModelId::Set;
  meta.seed = sim.seed;
  const uint32_t capacity = c.log_capacity ? c.log_capacity : 32 * c.ops_per_lane;
  const Prefill prefill = prefill_ops(c, sorted_set_shape(c).kinds.insert);
  return run_in_simulator(sorted_set_view(c, memory.pointers()), {&ops, c.ops_per_lane, capacity, meta, &prefill}, sim,
                          [&](sim::Simulator& s) { memory.add_shadow_pools(s.shadow()); });
}

}  // namespace warpcheck
