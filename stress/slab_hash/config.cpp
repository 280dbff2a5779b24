#include "stress/slab_hash/config.hpp"

#include <stdexcept>

#include "models/base/splitmix.hpp"
#include "structures/slab_hash/slab_hash_invariants.hpp"

namespace warpcheck {

using structures::slab_alloc;
using structures::slab_hash;
using structures::slab_hash_mode;
using structures::slab_hash_mutant;

void validate(const SlabHashConfig& c) {
  auto fail = [](const std::string& m) { throw std::invalid_argument("slab_hash: " + m); };
  if (c.teams == 0 || c.ops_per_lane == 0) fail("teams and ops per lane must be at least 1");
  if (c.buckets == 0 || c.buckets > slab_hash::kMaxBuckets) fail("buckets must be in [1, 2^30 - 1]");
  if (c.keys <= 0 || c.keys > slab_hash::kMaxKey + 1)
    fail("keys must be in [1, " + std::to_string(slab_hash::kMaxKey + 1) + "]: the two largest 32-bit words mark empty and deleted slots");
  if (c.largest_value() >= slab_hash::kEmptyValue)
    fail("too many operations for unique 32-bit values");
  if (c.super_blocks == 0 || c.super_blocks > 256 || c.blocks_per_super == 0 || c.blocks_per_super > (1u << 14))
    fail("SlabAlloc takes 1 to 256 super blocks of 1 to 16,384 memory blocks");
}

ModelId slab_hash_model(const SlabHashConfig& c) { return c.mode == slab_hash_mode::map ? ModelId::Map : ModelId::Multimap; }

OpKinds slab_hash_op_kinds(slab_hash_mode mode) {
  return mode == slab_hash_mode::map ? OpKinds{OpKind::Upsert, OpKind::Erase, OpKind::Find}
                                     : OpKinds{OpKind::Insert, OpKind::Erase, OpKind::Find};
}

WorkloadShape slab_hash_shape(const SlabHashConfig& c) { return c.shape(slab_hash_op_kinds(c.mode)); }

MemoryLayout slab_hash_layout(const SlabHashConfig& c) {
  const size_t blocks = size_t(c.super_blocks) * c.blocks_per_super;
  const size_t slab_bytes = sizeof(uint32_t) * slab_alloc::kWordsPerSlab;
  return {{"base slabs", slab_bytes, c.buckets, 0xFF, core::unit_state::allocated},  // EMPTY keys, values and links
          {"slabs", slab_bytes, blocks * slab_alloc::kSlabsPerBlock, 0xFF, core::unit_state::uninitialized},
          {"bitmaps", slab_alloc::kSlabsPerBlock / 8, blocks, 0, core::unit_state::allocated}};  // a bit a slab
}

slab_hash slab_hash_view(const SlabHashConfig& c, uint64_t seed, ArrayPointers a) {
  slab_hash h;
  h.base_slabs = static_cast<uint32_t*>(a[0]);
  h.alloc.slabs = static_cast<uint32_t*>(a[1]);
  h.alloc.bitmaps = static_cast<uint32_t*>(a[2]);
  h.alloc.super_blocks = c.super_blocks;
  h.alloc.blocks_per_super = c.blocks_per_super;
  h.buckets = c.buckets;
  const uint64_t z = detail::mix64(seed);  // the hash function ((a k + b) mod p) mod B
  h.hash_a = 1 + static_cast<uint32_t>(z % (slab_hash::kPrime - 1));
  h.hash_b = static_cast<uint32_t>((z >> 32) % slab_hash::kPrime);
  h.mode = c.mode;
  h.mutant = c.mutant;
  h.fixes = c.fixes;
  h.guard_order = c.guard_order;
  return h;
}

CheckedRun run_slab_hash_sim(const SlabHashConfig& c, const sim::SimConfig& sim) {
  const WorkloadShape shape = slab_hash_shape(c);
  return run_slab_hash_sim(c, sim, materialize(shape, generate_slots(shape, sim.seed)));
}

CheckedRun run_slab_hash_sim(const SlabHashConfig& c, const sim::SimConfig& sim, const std::vector<core::workload_op>& ops) {
  validate(c);
  if (sim.teams != c.teams || sim.lanes != 32) throw std::invalid_argument("slab_hash: simulator shape must be teams x 32");
  if (ops.size() != size_t(c.teams) * 32 * c.ops_per_lane) throw std::invalid_argument("slab_hash: workload size does not fit the shape");
  for (const auto& op : ops)
    if (op.active && (op.key < 0 || op.key > slab_hash::kMaxKey))
      throw std::invalid_argument("slab_hash: key " + std::to_string(op.key) + " is a reserved word (empty or deleted)");
  const HostMemory memory(slab_hash_layout(c));
  const slab_hash table = slab_hash_view(c, sim.seed, memory.pointers());
  HistoryMeta meta;
  meta.model = slab_hash_model(c);
  meta.seed = sim.seed;
  const uint32_t capacity = c.log_capacity ? c.log_capacity : 32 * c.ops_per_lane;
  const Prefill prefill = prefill_ops(c, slab_hash_op_kinds(c.mode).insert);
  CheckedRun out;
  out.run = run_in_simulator(table, {&ops, c.ops_per_lane, capacity, meta, &prefill}, sim,
                             [&](sim::Simulator& s) { memory.add_shadow_pools(s.shadow()); });
  if (out.run.report.ok()) out.invariant_violations = structures::slab_hash_invariants(table);
  return out;
}

}  // namespace warpcheck
