#include "stress/slab_hash/config.hpp"

#include <map>
#include <stdexcept>

#include "models/base/splitmix.hpp"

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
  return {{"base slabs", 128, c.buckets, 0xFF, core::unit_state::allocated},  // EMPTY keys, values and links
          {"slabs", 128, blocks * slab_alloc::kSlabsPerBlock, 0xFF, core::unit_state::uninitialized},
          {"bitmaps", 128, blocks, 0, core::unit_state::allocated}};
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
  return h;
}

std::vector<std::string> check_slab_hash_invariants(const slab_hash& h) {
  std::vector<std::string> bad;
  auto note = [&](std::string s) {
    if (bad.size() < 20) bad.push_back(std::move(s));
  };
  const size_t total_slabs = size_t(h.alloc.blocks()) * slab_alloc::kSlabsPerBlock;
  auto allocated = [&](uint32_t handle) {
    const uint32_t unit = slab_alloc::unit_of(handle);
    return (h.alloc.bitmaps[size_t(h.alloc.block_of(handle)) * 32 + unit / 32] >> (unit % 32)) & 1u;
  };
  auto index_of = [&](uint32_t handle) { return size_t(h.alloc.block_of(handle)) * slab_alloc::kSlabsPerBlock + slab_alloc::unit_of(handle); };
  std::vector<uint32_t> seen_in(total_slabs, UINT32_MAX);
  std::map<uint32_t, uint32_t> live;  // key -> live copies
  for (uint32_t b = 0; b < h.buckets; ++b) {
    const uint32_t* words = h.base_slabs + size_t(b) * 32;
    for (size_t hops = 0;; ++hops) {
      for (uint32_t lane = 0; lane < 30; lane += 2) {
        const uint32_t k = words[lane];
        if (k == slab_hash::kEmptyKey || k == slab_hash::kDeletedKey) continue;
        ++live[k];
        if (h.bucket_of(k) != b) note("key " + std::to_string(k) + " is in bucket " + std::to_string(b) + ", hashes to " + std::to_string(h.bucket_of(k)));
      }
      const uint32_t next = words[slab_hash::kAddressLane];
      if (next == slab_alloc::kEmptyPointer) break;
      if (h.alloc.block_of(next) >= h.alloc.blocks() || hops > total_slabs) {
        note("bucket " + std::to_string(b) + ": link to a slab outside the allocator, or a cycle");
        break;
      }
      const size_t i = index_of(next);
      if (!allocated(next)) note("bucket " + std::to_string(b) + " links slab " + std::to_string(next) + ", which is not allocated");
      if (seen_in[i] != UINT32_MAX) {
        note("slab " + std::to_string(next) + " is linked twice (buckets " + std::to_string(seen_in[i]) + " and " + std::to_string(b) + ")");
        break;
      }
      seen_in[i] = b;
      words = h.alloc.slabs + i * 32;
    }
  }
  for (size_t i = 0; i < total_slabs; ++i) {
    const uint32_t handle = slab_alloc::handle(static_cast<uint32_t>(i / slab_alloc::kSlabsPerBlock),
                                               static_cast<uint32_t>(i % slab_alloc::kSlabsPerBlock), h.alloc.blocks_per_super);
    if (allocated(handle) && seen_in[i] == UINT32_MAX) note("slab " + std::to_string(handle) + " is allocated but in no list (a leak)");
  }
  if (h.mode == slab_hash_mode::map)
    for (auto& [k, n] : live)
      if (n > 1) note("key " + std::to_string(k) + " has " + std::to_string(n) + " live copies in map mode");
  return bad;
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
  if (out.run.report.ok()) out.invariant_violations = check_slab_hash_invariants(table);
  return out;
}

}  // namespace warpcheck
