#include "stress/heap_target.hpp"

#include <stdexcept>

namespace warpcheck {

using structures::generalized_heap;

std::string describe_config(const HeapConfig& c, const sim::SimConfig& s) {
  return "{\"structure\":\"heap\",\"backend\":\"sim\",\"variant\":\"" + heap_variant_name(c) +
         "\",\"teams\":" + std::to_string(c.teams) + ",\"lanes\":" + std::to_string(c.lanes) +
         ",\"k\":" + std::to_string(c.k) + ",\"ops_per_team\":" + std::to_string(c.ops_per_team) + ",\"mix\":\"" +
         format_op_mix(c.mix) + "\",\"full_batches\":" + std::to_string(c.full_batches) +
         ",\"phases\":" + (c.phases ? "true" : "false") + ",\"narrow_keys\":" + std::to_string(c.narrow_keys) +
         ",\"bit_reversal\":" + (c.bit_reversal ? "true" : "false") + ",\"mutant\":\"" + heap_mutant_name(c.mutant) +
         "\",\"scheduler\":\"" + (s.scheduler == sim::SchedulerKind::Pct ? "pct" : "random") + "\"}";
}

HeapRun run_heap_sim(const HeapConfig& c, const sim::SimConfig& sim, const std::vector<core::workload_op>& ops) {
  validate(c);
  if (sim.teams != c.teams || sim.lanes != c.lanes) throw std::invalid_argument("heap: simulator shape must be teams x lanes");
  if (ops.size() != size_t(c.teams) * c.ops_per_team) throw std::invalid_argument("heap: workload size does not fit the shape");
  for (const auto& op : ops)
    if (op.active && ((op.kind != OpKind::Push && op.kind != OpKind::Pop) ||
                      (op.kind == OpKind::Push && (op.key < 1 || op.key > int64_t(c.k)))))
      throw std::invalid_argument("heap: a workload operation is not a push of 1 to k keys or a pop");
  HeapMemory memory(c);
  const generalized_heap heap = memory.view(c);
  const uint32_t scratch_words = generalized_heap::kScratchBatches * c.k;
  std::vector<uint32_t> scratch(size_t(c.teams) * scratch_words);
  HistoryMeta meta;
  meta.model = ModelId::PriorityQueue;
  meta.seed = sim.seed;
  meta.config = describe_config(c, sim);
  const uint32_t records = (c.log_capacity ? c.log_capacity : c.ops_per_team) + c.prefill;
  HostLog log(c.teams, records, records * c.k);
  auto name_pools = [&](sim::Simulator& s) {
    auto& shadow = s.shadow();
    shadow.add_pool(memory.keys.data(), sizeof(uint32_t) * c.k, memory.states.size(), "node", core::unit_state::allocated);
    shadow.add_pool(memory.states.data(), sizeof(uint32_t), memory.states.size(), "node state", core::unit_state::allocated);
    shadow.add_pool(memory.partial.data(), sizeof(uint32_t) * c.k, 1, "partial buffer", core::unit_state::allocated);
    shadow.add_pool(memory.counters.data(), sizeof(uint32_t), kHeapCounters, "counter (0 partial size, 1 last, 2 gate)",
                    core::unit_state::allocated);
    shadow.add_pool(scratch.data(), sizeof(uint32_t) * scratch_words, c.teams, "team scratch", core::unit_state::allocated);
  };
  const structures::heap_keys keys = heap_key_source(c);
  HeapRun out;
  sim::SimConfig concurrent = sim;
  if (c.prefill) {
    // Block 0 alone pushes the prefill (its stream starts with them); the
    // concurrent run's clock starts after it, so they precede everything.
    const std::vector<core::workload_op> fill = heap_prefill_ops(c);
    sim::SimConfig alone = sim;
    alone.teams = 1;
    alone.replay.clear();
    alone.scheduler = sim::SchedulerKind::Random;
    sim::Simulator first(alone);
    name_pools(first);
    out.run.report = first.run([&](sim::sim_team& t) {
      structures::run_team_heap_ops(t, heap, {fill.data(), c.prefill, uint64_t(c.teams) * c.ops_per_team},
                                    scratch.data(), keys, &log.view());
    });
    if (!out.run.report.ok()) {
      out.run.report.message = "prefill: " + out.run.report.message;
      out.run.history = history_from_log(log, meta);
      return out;
    }
    concurrent.clock_offset = out.run.report.steps + 1;
  }
  sim::Simulator simulator(concurrent);
  name_pools(simulator);
  out.run.report = simulator.run([&](sim::sim_team& t) {
    const uint32_t team = t.team_id();
    structures::run_team_heap_ops(t, heap, {ops.data() + size_t(team) * c.ops_per_team, c.ops_per_team, uint64_t(team) * c.ops_per_team},
                                  scratch.data() + size_t(team) * scratch_words, keys, &log.view());
  });
  out.run.history = history_from_log(log, meta);
  if (out.run.report.ok()) out.invariant_violations = check_heap_invariants(memory, heap, out.run.history);
  return out;
}

}  // namespace warpcheck
