#include "stress/sorted_set_target.hpp"

#include <stdexcept>

namespace warpcheck {

using structures::sorted_set_mutant;

void validate(const SortedSetConfig& c) {
  auto fail = [](const std::string& m) { throw std::invalid_argument("sorted-set: " + m); };
  if (c.teams == 0 || c.ops_per_lane == 0) fail("teams and ops per lane must be at least 1");
  if (c.buckets == 0) fail("buckets must be at least 1");
  if (c.keys <= 0 || c.keys > INT32_MAX) fail("keys must be in [1, 2^31)");
  if (c.keys > int64_t(c.buckets) * structures::sorted_array_set::kSlots)
    fail("keys (" + std::to_string(c.keys) + ") exceed 32 per bucket (" + std::to_string(c.buckets) +
         " buckets): a bucket could overflow");
}

WorkloadSpec sorted_set_workload(const SortedSetConfig& c, uint64_t seed) {
  WorkloadSpec w;
  w.seed = seed;
  w.operations = uint64_t(c.teams) * 32 * c.ops_per_lane;
  w.keys = c.keys;
  w.mix = c.mix;
  return w;
}

const std::vector<MutantInfo>& sorted_set_mutants() {
  static const std::vector<MutantInfo> m = {
      {"unlocked_contains", "contains reads the bucket without its lock and can see a shift half done"},
      {"keep_lock_on_miss", "an erase of an absent key returns without releasing the bucket lock"},
  };
  return m;
}

sorted_set_mutant parse_sorted_set_mutant(const std::string& name) {
  if (name.empty() || name == "none") return sorted_set_mutant::none;
  const auto& all = sorted_set_mutants();
  for (size_t i = 0; i < all.size(); ++i)
    if (all[i].name == name) return static_cast<sorted_set_mutant>(i + 1);
  throw std::invalid_argument("sorted-set has no mutant \"" + name + "\" (see --list-mutants)");
}

std::string describe_config(const SortedSetConfig& c, const sim::SimConfig& s) {
  const std::string mutant = c.mutant == sorted_set_mutant::none ? "none" : sorted_set_mutants()[int(c.mutant) - 1].name;
  return "{\"structure\":\"sorted-set\",\"backend\":\"sim\",\"teams\":" + std::to_string(c.teams) +
         ",\"ops_per_lane\":" + std::to_string(c.ops_per_lane) + ",\"keys\":" + std::to_string(c.keys) +
         ",\"buckets\":" + std::to_string(c.buckets) + ",\"mix\":\"" + format_op_mix(c.mix) + "\",\"mutant\":\"" +
         mutant + "\",\"scheduler\":\"" + (s.scheduler == sim::SchedulerKind::Pct ? "pct" : "random") +
         "\",\"pct_depth\":" + std::to_string(s.pct_depth) + ",\"pct_steps\":" + std::to_string(s.pct_steps) + "}";
}

SortedSetMemory::SortedSetMemory(uint32_t buckets)
    : locks(buckets), sizes(buckets), keys(size_t(buckets) * structures::sorted_array_set::kSlots) {}

structures::sorted_array_set SortedSetMemory::view(sorted_set_mutant m) {
  return {locks.data(), sizes.data(), keys.data(), static_cast<uint32_t>(locks.size()), m};
}

void SortedSetMemory::name_in(sim::Simulator& s) const {
  s.shadow().add_pool(locks.data(), sizeof(uint32_t), locks.size(), "bucket locks", core::unit_state::allocated);
  s.shadow().add_pool(sizes.data(), sizeof(uint32_t), sizes.size(), "bucket sizes", core::unit_state::allocated);
  s.shadow().add_pool(keys.data(), sizeof(int32_t) * structures::sorted_array_set::kSlots, locks.size(), "buckets",
                      core::unit_state::allocated);
}

TargetRun run_sorted_set_sim(const SortedSetConfig& c, const sim::SimConfig& sim) {
  return run_sorted_set_sim(c, sim, make_workload(sorted_set_workload(c, sim.seed)));
}

TargetRun run_sorted_set_sim(const SortedSetConfig& c, const sim::SimConfig& sim, const std::vector<core::workload_op>& ops) {
  validate(c);
  if (sim.teams != c.teams || sim.lanes != 32) throw std::invalid_argument("sorted-set: simulator shape must be teams x 32");
  if (ops.size() != size_t(c.teams) * 32 * c.ops_per_lane) throw std::invalid_argument("sorted-set: workload size does not fit the shape");
  SortedSetMemory memory(c.buckets);
  HistoryMeta meta;
  meta.model = ModelId::Set;
  meta.seed = sim.seed;
  meta.config = describe_config(c, sim);
  const uint32_t capacity = c.log_capacity ? c.log_capacity : 32 * c.ops_per_lane;
  return run_in_simulator(memory.view(c.mutant), {&ops, c.ops_per_lane, capacity, meta}, sim,
                          [&](sim::Simulator& s) { memory.name_in(s); });
}

}  // namespace warpcheck
