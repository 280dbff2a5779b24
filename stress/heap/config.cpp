#include "stress/heap/config.hpp"

#include "linearizability/history.hpp"
#include "structures/heap/heap_invariants.hpp"

#include <algorithm>
#include <iterator>
#include <set>
#include <stdexcept>

namespace warpcheck {

using structures::generalized_heap;
using structures::heap_mutant;
using structures::heap_variant;

namespace {
uint32_t bits_for(uint64_t n) {  // bits to number [0, n)
  uint32_t b = 0;
  while ((uint64_t(1) << b) < n) ++b;
  return b;
}
uint64_t total_slots(const HeapConfig& c) { return uint64_t(c.teams) * c.ops_per_team + c.prefill; }
}  // namespace

void validate(const HeapConfig& c) {
  auto fail = [](const std::string& m) { throw std::invalid_argument("heap: " + m); };
  if (c.teams == 0 || c.ops_per_team == 0) fail("teams and operations a team must be at least 1");
  if (c.lanes == 0 || c.lanes > 1024) fail("a block has 1 to 1,024 lanes");
  if (c.k == 0 || (c.k & (c.k - 1)) || c.k > 4096) fail("k (keys a node) must be a power of two up to 4,096, got " + std::to_string(c.k));
  if (c.mix.insert + c.mix.erase == 0) fail("the mix needs pushes (insert=) or pops (delete=)");
  if (c.mix.contains) fail("the heap has no search: use insert= and delete= only");
  if (!(c.full_batches >= 0 && c.full_batches <= 1)) fail("--full-batches must be in [0, 1]");
  if (c.narrow_keys == 0 && bits_for(total_slots(c) * c.k) > 30)
    fail("too many operations for distinct 31-bit keys (use --narrow-keys, or fewer operations)");
  if (c.capacity && c.capacity > (1u << 26)) fail("capacity above 2^26 nodes");
  if (c.capacity && c.capacity < c.prefill) fail("the prefill needs more nodes than the capacity");
  // A variant has no code path for the other variant's planted bug.
  if (c.mutant == heap_mutant::no_marked_wait && c.variant != heap_variant::td) fail("mutant no_marked_wait is of the td heap");
  if (c.mutant == heap_mutant::ignore_parked_parent && c.variant != heap_variant::bu)
    fail("mutant ignore_parked_parent is of the bu heap");
  if ((c.fixes & structures::heap_fix::phase_gate) && c.teams > 0xFFF) fail("the phase gate counts at most 4,095 blocks");
}

uint32_t heap_fixes_of(heap_variant inserts) {
  return inserts == heap_variant::td ? structures::heap_fix::td_fixed : structures::heap_fix::bu_fixed;
}

void set_heap_variant(HeapVariant v, HeapConfig& c) {
  c.variant = v.inserts;
  c.fixes = v.fixed ? heap_fixes_of(v.inserts) : 0;
}

void parse_heap_variant(const std::string& name, HeapConfig& c) {
  const HeapVariant* v = value_named(kHeapVariants, name);
  if (!v) throw std::invalid_argument("heap: --variant must be td, bu, td-fixed or bu-fixed, got '" + name + "'");
  set_heap_variant(*v, c);
}

uint32_t heap_capacity(const HeapConfig& c) {
  return c.capacity ? c.capacity : static_cast<uint32_t>(std::min<uint64_t>(total_slots(c) + 1, 1u << 26));
}

structures::heap_keys heap_key_source(const HeapConfig& c) {
  structures::heap_keys keys;
  keys.k = c.k;
  if (c.narrow_keys) {
    keys.tag_bits = 0;
    keys.range = c.narrow_keys;
  } else {
    keys.tag_bits = bits_for(total_slots(c) * c.k);
    keys.range = uint32_t(1) << (31 - keys.tag_bits);
  }
  return keys;
}

std::vector<core::workload_op> heap_prefill_ops(const HeapConfig& c) {
  std::vector<core::workload_op> ops(c.prefill);
  for (uint32_t i = 0; i < c.prefill; ++i) {
    ops[i].kind = OpKind::Push;
    ops[i].key = c.k;
    ops[i].value = int64_t(uint64_t(c.teams) * c.ops_per_team + i) + 1;  // a seed no workload slot uses
  }
  return ops;
}

WorkloadShape heap_workload_shape(const HeapConfig& c) {
  WorkloadShape w;
  w.teams = c.teams;
  w.lanes = 1;
  w.per_lane = c.ops_per_team;
  w.keys = c.k;
  w.mix = c.mix;
  w.kinds = OpKinds{OpKind::Push, OpKind::Pop, OpKind::Pop};
  w.knobs.full_batches = c.full_batches;
  w.knobs.phases = c.phases;
  w.batches = true;
  return w;
}

MemoryLayout heap_layout(const HeapConfig& c) {
  const size_t nodes = generalized_heap::node_slots(heap_capacity(c)) + 1;
  return {{"node", sizeof(uint32_t) * c.k, nodes, 0xFF, core::unit_state::allocated},  // empty slots
          {"node state", sizeof(uint32_t), nodes, 0, core::unit_state::allocated},
          {"partial buffer", sizeof(uint32_t) * c.k, 1, 0xFF, core::unit_state::allocated},
          {"counter (0 partial size, 1 last, 2 gate)", sizeof(uint32_t), 3, 0, core::unit_state::allocated}};
}

generalized_heap heap_view(const HeapConfig& c, ArrayPointers a) {
  uint32_t* counters = static_cast<uint32_t*>(a[3]);
  generalized_heap h;
  h.gate = counters + 2;
  h.keys = static_cast<uint32_t*>(a[0]);
  h.states = static_cast<uint32_t*>(a[1]);
  h.partial = static_cast<uint32_t*>(a[2]);
  h.partial_size = counters;
  h.last = counters + 1;
  h.k = c.k;
  h.capacity = heap_capacity(c);
  h.nodes = generalized_heap::node_slots(h.capacity) + 1;
  h.variant = c.variant;
  h.fixes = c.fixes;
  h.bit_reversal = c.bit_reversal;
  h.mutant = c.mutant;
  return h;
}

std::vector<std::string> check_heap_invariants(const generalized_heap& h, const History& history) {
  std::vector<uint32_t> held;
  std::vector<std::string> bad = structures::heap_invariants(h, &held);
  auto note = [&](std::string s) {
    if (bad.size() < 20) bad.push_back(std::move(s));
  };
  // Conservation: only for a complete history with nothing pending.
  const bool settled = !history.meta.incomplete &&
                       std::none_of(history.ops.begin(), history.ops.end(), [](const Operation& o) { return o.pending(); });
  if (settled) {
    std::multiset<int64_t> expected;
    for (const Operation& op : history.ops)
      for (int64_t key : history.pushed_keys(op)) expected.insert(key);
    for (const Operation& op : history.ops) {
      for (int64_t key : history.popped_keys(op)) {
        auto it = expected.find(key);
        if (it == expected.end()) {
          note("a pop returned key " + std::to_string(key) + " more often than it was pushed");
          continue;
        }
        expected.erase(it);
      }
    }
    std::multiset<int64_t> have(held.begin(), held.end());
    if (have != expected) {
      std::vector<int64_t> lost, extra;
      std::set_difference(expected.begin(), expected.end(), have.begin(), have.end(), std::back_inserter(lost));
      std::set_difference(have.begin(), have.end(), expected.begin(), expected.end(), std::back_inserter(extra));
      note("keys: the heap holds " + std::to_string(have.size()) + " keys, pushes minus pops leave " +
           std::to_string(expected.size()) + " (" + std::to_string(lost.size()) + " lost, " + std::to_string(extra.size()) +
           " not pushed or popped already" + (lost.empty() ? "" : ", first lost " + std::to_string(lost[0])) + ")");
    }
  }
  return bad;
}

CheckedRun run_heap_sim(const HeapConfig& c, const sim::SimConfig& sim, const std::vector<core::workload_op>& ops) {
  validate(c);
  if (sim.teams != c.teams || sim.lanes != c.lanes) throw std::invalid_argument("heap: simulator shape must be teams x lanes");
  if (ops.size() != size_t(c.teams) * c.ops_per_team) throw std::invalid_argument("heap: workload size does not fit the shape");
  for (const auto& op : ops)
    if (op.active && ((op.kind != OpKind::Push && op.kind != OpKind::Pop) ||
                      (op.kind == OpKind::Push && (op.key < 1 || op.key > int64_t(c.k)))))
      throw std::invalid_argument("heap: a workload operation is not a push of 1 to k keys or a pop");
  const HostMemory memory(heap_layout(c));
  const generalized_heap heap = heap_view(c, memory.pointers());
  const uint32_t scratch_words = generalized_heap::kScratchBatches * c.k;
  std::vector<uint32_t> scratch(size_t(c.teams) * scratch_words);
  HistoryMeta meta;
  meta.model = ModelId::PriorityQueue;
  meta.seed = sim.seed;
  const uint32_t records = (c.log_capacity ? c.log_capacity : c.ops_per_team) + c.prefill;
  HostLog log(c.teams, records, records * c.k);
  auto name_pools = [&](sim::Simulator& s) {
    memory.add_shadow_pools(s.shadow());
    s.shadow().add_pool(scratch.data(), sizeof(uint32_t) * scratch_words, c.teams, "team scratch", core::unit_state::allocated);
  };
  const structures::heap_keys keys = heap_key_source(c);
  CheckedRun out;
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
  guide_after(simulator, log);
  out.run.report = simulator.run([&](sim::sim_team& t) {
    const uint32_t team = t.team_id();
    structures::run_team_heap_ops(t, heap, {ops.data() + size_t(team) * c.ops_per_team, c.ops_per_team, uint64_t(team) * c.ops_per_team},
                                  scratch.data() + size_t(team) * scratch_words, keys, &log.view());
  });
  out.run.history = history_from_log(log, meta);
  if (out.run.report.ok()) out.invariant_violations = check_heap_invariants(heap, out.run.history);
  return out;
}

}  // namespace warpcheck
