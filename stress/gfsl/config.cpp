#include "stress/gfsl/config.hpp"

#include <cmath>
#include <cstring>
#include <stdexcept>

#include "structures/core/sim/sim_team.hpp"
#include "structures/gfsl/gfsl_invariants.hpp"

namespace warpcheck {

namespace layout = structures::gfsl_layout;
using structures::gfsl;

void validate(const GfslConfig& c) {
  auto fail = [](const std::string& m) { throw std::invalid_argument("gfsl: " + m); };
  if (c.teams == 0 || c.ops_per_lane == 0) fail("teams and ops per lane must be at least 1");
  if (c.chunk != 16 && c.chunk != 32) fail("a chunk has 16 or 32 entries, got " + std::to_string(c.chunk));
  if (c.keys <= 0 || c.keys > layout::kMaxKey + 1)
    fail("keys must be in [1, " + std::to_string(layout::kMaxKey + 1) + "]: keys + 1 must stay below infinity");
  if (c.largest_value() >= 0xFFFFFFFFull) fail("too many operations for unique 32-bit values");
  if (!(c.p_chunk >= 0 && c.p_chunk <= 1)) fail("p-chunk must be in [0, 1]");
  if (c.pool_chunks && c.pool_chunks < c.chunk) fail("the pool needs at least one chunk a level (" + std::to_string(c.chunk) + ")");
}

uint32_t gfsl_pool_chunks(const GfslConfig& c) {
  if (c.pool_chunks) return c.pool_chunks;
  // No reclamation: every split allocates. An update splits at most once a
  // level; in practice a few chunks an update at most.
  const uint64_t ops = uint64_t(c.teams) * 32 * c.ops_per_lane + c.prefill;
  return static_cast<uint32_t>(std::min<uint64_t>(c.chunk + 2 * ops + 64, 0xFFFFFFF0ull));
}

WorkloadShape gfsl_shape(const GfslConfig& c) { return c.shape(OpKinds{OpKind::Insert, OpKind::Erase, OpKind::Find}); }

MemoryLayout gfsl_layout(const GfslConfig& c) {
  const uint32_t levels = c.chunk;
  return {{"chunk", sizeof(uint64_t) * c.chunk, gfsl_pool_chunks(c), 0xFF, core::unit_state::uninitialized},  // EMPTY everywhere
          {"head", sizeof(uint32_t), levels, 0, core::unit_state::allocated},
          {"level chunks", sizeof(uint32_t), levels, 0, core::unit_state::allocated},
          {"allocator", sizeof(uint32_t), 1, 0, core::unit_state::allocated}};
}

gfsl gfsl_view(const GfslConfig& c, ArrayPointers a) {
  gfsl s;
  s.pool = static_cast<uint64_t*>(a[0]);
  s.heads = static_cast<uint32_t*>(a[1]);
  s.level_chunks = static_cast<uint32_t*>(a[2]);
  s.next_free = static_cast<uint32_t*>(a[3]);
  s.pool_chunks = gfsl_pool_chunks(c);
  s.chunk = c.chunk;
  s.fixes = c.fixes;
  s.mutant = c.mutant;
  s.raise_below = c.p_chunk >= 1 ? ~0u : static_cast<uint32_t>(std::ldexp(c.p_chunk, 32));
  s.validation_tries = c.validation_tries;
  return s;
}

void gfsl_initialize(const GfslConfig& c, HostMemory& m) {
  const gfsl s = gfsl_view(c, m.pointers());
  for (uint32_t level = 0; level < s.levels(); ++level) {
    s.entry_at(level, 0)[0] = layout::entry(layout::kNegInfKey, level ? level - 1 : 0);
    s.entry_at(level, c.chunk - 1)[0] = layout::kUnlocked;
    s.heads[level] = level;
  }
  *s.next_free = s.levels();
}

CheckedRun run_gfsl_sim(const GfslConfig& c, const sim::SimConfig& sim, const std::vector<core::workload_op>& ops) {
  HostMemory memory(gfsl_layout(c));
  gfsl_initialize(c, memory);
  return run_gfsl_sim(c, sim, ops, memory);
}

CheckedRun run_gfsl_sim(const GfslConfig& c, const sim::SimConfig& sim, const std::vector<core::workload_op>& ops,
                        HostMemory& memory) {
  validate(c);
  if (sim.teams != c.teams || sim.lanes != 32) throw std::invalid_argument("gfsl: simulator shape must be teams x 32");
  if (ops.size() != size_t(c.teams) * 32 * c.ops_per_lane) throw std::invalid_argument("gfsl: workload size does not fit the shape");
  for (const auto& op : ops)
    if (op.active && (op.key < 0 || op.key > layout::kMaxKey))
      throw std::invalid_argument("gfsl: key " + std::to_string(op.key) + " out of range");
  const gfsl s = gfsl_view(c, memory.pointers());
  HistoryMeta meta;
  meta.model = ModelId::Map;
  meta.seed = sim.seed;
  const uint32_t capacity = c.log_capacity ? c.log_capacity : 32 * c.ops_per_lane;
  CheckedRun out;
  const Prefill prefill = prefill_ops(c, OpKind::Insert);
  out.run = run_in_simulator(s, {&ops, c.ops_per_lane, capacity, meta, &prefill}, sim, [&](sim::Simulator& simulator) {
    memory.add_shadow_pools(simulator.shadow());
    for (uint32_t chunk = 0; chunk < std::min(*s.next_free, s.pool_chunks); ++chunk)  // the heads, and what earlier runs allocated
      simulator.shadow().mark(s.entry_at(chunk, 0), chunk < s.levels() || layout::owner_of(s.entry_at(chunk, c.chunk - 1)[0]) !=
                                                                                   layout::kZombieOwner
                                                         ? core::unit_state::allocated
                                                         : core::unit_state::retired);
  });
  if (out.run.report.ok()) out.invariant_violations = structures::gfsl_invariants(s);
  return out;
}

}  // namespace warpcheck
