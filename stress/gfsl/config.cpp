#include "stress/gfsl/config.hpp"

#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <stdexcept>

#include "structures/core/sim/sim_team.hpp"

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

namespace {

struct ChunkView {
  const uint64_t* e;
  uint32_t n;
  uint32_t key(uint32_t i) const { return layout::key_of(e[i]); }
  uint32_t max() const { return layout::key_of(e[n - 2]); }
  uint32_t next() const { return layout::value_of(e[n - 2]); }
  uint64_t lock() const { return e[n - 1]; }
  bool zombie() const { return layout::owner_of(lock()) == layout::kZombieOwner; }
  uint32_t count() const {
    uint32_t k = 0;
    while (k < n - 2 && key(k) != layout::kEmptyKey) ++k;
    return k;
  }
};

}  // namespace

std::vector<std::string> check_gfsl_invariants(const gfsl& s) {
  std::vector<std::string> bad;
  auto note = [&](std::string m) {
    if (bad.size() < 20) bad.push_back(std::move(m));
  };
  const uint32_t n = s.chunk, levels = s.levels();
  const uint32_t allocated = std::min(*s.next_free, s.pool_chunks);
  auto chunk = [&](uint32_t i) { return ChunkView{s.entry_at(i, 0), n}; };
  auto name = [](uint32_t i) { return "chunk " + std::to_string(i); };
  std::vector<int> level_of(s.pool_chunks, -1);
  // Each level's chunks in order (zombies included), and its live ones.
  std::vector<std::vector<uint32_t>> order(levels), live(levels);
  for (uint32_t l = 0; l < levels; ++l) {
    for (uint32_t c = s.heads[l], hops = 0; c != layout::kNil; c = chunk(c).next(), ++hops) {
      if (c >= allocated || hops > allocated) {
        note("level " + std::to_string(l) + ": a link to an unallocated chunk, or a cycle");
        break;
      }
      if (level_of[c] >= 0) {
        note(name(c) + " is reachable on levels " + std::to_string(level_of[c]) + " and " + std::to_string(l));
        break;
      }
      level_of[c] = int(l);
      order[l].push_back(c);
      if (!chunk(c).zombie()) live[l].push_back(c);
    }
    if (order[l].empty()) continue;
    const ChunkView last = chunk(order[l].back());
    if (last.zombie()) note("level " + std::to_string(l) + ": its last " + name(order[l].back()) + " is a zombie");
    if (last.max() != layout::kEmptyKey) note("level " + std::to_string(l) + ": its last chunk's max is not infinity");
  }
  for (uint32_t c = 0; c < allocated; ++c)
    if (level_of[c] < 0 && !chunk(c).zombie()) note(name(c) + " is allocated, not a zombie, and on no level");
  // Lateral order, packing, locks.
  std::vector<std::map<uint32_t, std::pair<uint32_t, uint32_t>>> where(levels);  // level: key -> (chunk, value)
  for (uint32_t l = 0; l < levels; ++l) {
    bool first_key = true;
    uint32_t previous = 0, previous_max = 0;
    for (size_t i = 0; i < live[l].size(); ++i) {
      const uint32_t c = live[l][i];
      const ChunkView v = chunk(c);
      if (layout::owner_of(v.lock()) != 0) note(name(c) + " (level " + std::to_string(l) + ") is left locked by team " +
                                                std::to_string(layout::owner_of(v.lock()) - 1));
      const uint32_t count = v.count();
      for (uint32_t j = count; j < n - 2; ++j)
        if (v.key(j) != layout::kEmptyKey) note(name(c) + ": a key after an EMPTY entry (not packed)");
      for (uint32_t j = 0; j < count; ++j) {
        const uint32_t k = v.key(j);
        if (!first_key && k <= previous)
          note("level " + std::to_string(l) + ": key " + std::to_string(k) + " in " + name(c) + " is not above " + std::to_string(previous) +
               " before it (unsorted, or in two live chunks)");
        if (k > v.max()) note(name(c) + ": key " + std::to_string(k) + " above the chunk's max " + std::to_string(v.max()));
        if (i > 0 && j == 0 && k <= previous_max)
          note(name(c) + ": its first key " + std::to_string(k) + " is not above the previous live chunk's max " + std::to_string(previous_max));
        where[l][k] = {c, layout::value_of(v.e[j])};
        previous = k;
        first_key = false;
      }
      previous_max = v.max();
    }
    // The level's counter: zero exactly when it holds no key but minus infinity.
    if (l > 0) {
      const bool holds = where[l].size() > (where[l].count(layout::kNegInfKey) ? 1u : 0u);
      if (holds != (s.level_chunks[l] != 0))
        note("level " + std::to_string(l) + ": counter " + std::to_string(s.level_chunks[l]) + " but it " +
             (holds ? "holds keys" : "holds none"));
    }
  }
  // Down pointers: from each upper entry, lateral steps one level down
  // reach the chunk that encloses (and holds) its key, through no zombie first.
  for (uint32_t l = 1; l < levels; ++l) {
    for (const auto& [k, at] : where[l]) {
      const uint32_t below = at.second;
      // A zombie (even one unlinked from its level) is a valid step: its
      // NEXT leads on, and merges do not guarantee that no down pointer is
      // left on one (finding G5).
      if (below >= allocated || (level_of[below] != int(l - 1) && !chunk(below).zombie())) {
        note("level " + std::to_string(l) + ": key " + std::to_string(k) + "'s down pointer leads to " + name(below) +
             ", not a chunk of level " + std::to_string(l - 1));
        continue;
      }
      const auto held = where[l - 1].find(k);
      if (held == where[l - 1].end()) {
        note("level " + std::to_string(l) + ": key " + std::to_string(k) + " is not in level " + std::to_string(l - 1));
        continue;
      }
      bool reached = false;
      for (uint32_t c = below, hops = 0; c != layout::kNil && hops <= allocated; c = chunk(c).next(), ++hops)
        if (c == held->second.first) {
          reached = true;
          break;
        }
      if (!reached)
        note("level " + std::to_string(l) + ": key " + std::to_string(k) + "'s down pointer, " + name(below) +
             ", does not reach laterally the chunk holding it below, " + name(held->second.first));
    }
  }
  return bad;
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
  if (out.run.report.ok()) out.invariant_violations = check_gfsl_invariants(s);
  return out;
}

}  // namespace warpcheck
