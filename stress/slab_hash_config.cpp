#include "stress/slab_hash_config.hpp"

#include <map>
#include <stdexcept>

namespace warpcheck {

using structures::slab_alloc;
using structures::slab_hash;
using structures::slab_hash_mode;
using structures::slab_hash_mutant;

void validate(const SlabHashConfig& c) {
  auto fail = [](const std::string& m) { throw std::invalid_argument("slabhash: " + m); };
  if (c.teams == 0 || c.ops_per_lane == 0) fail("teams and ops per lane must be at least 1");
  if (c.buckets == 0) fail("buckets must be at least 1");
  if (c.keys <= 0 || c.keys > slab_hash::kMaxKey + 1)
    fail("keys must be in [1, " + std::to_string(slab_hash::kMaxKey + 1) + "]: the two largest 32-bit words mark empty and deleted slots");
  if (uint64_t(c.teams) * 32 * c.ops_per_lane >= slab_hash::kEmptyValue)
    fail("too many operations for unique 32-bit values");
  if (c.super_blocks == 0 || c.super_blocks > 256 || c.blocks_per_super == 0 || c.blocks_per_super > (1u << 14))
    fail("SlabAlloc takes 1 to 256 super blocks of 1 to 16,384 memory blocks");
  const auto& m = slab_hash_mutants()[static_cast<size_t>(c.mutant)];
  if (c.mutant != slab_hash_mutant::none && !(c.mode == slab_hash_mode::map ? m.map : m.multimap))
    fail("mutant " + m.name + " does not apply in " + (c.mode == slab_hash_mode::map ? "map" : "multimap") + " mode");
}

slab_hash_mode parse_slab_hash_mode(const std::string& name) {
  if (name == "map") return slab_hash_mode::map;
  if (name == "multimap") return slab_hash_mode::multimap;
  throw std::invalid_argument("slabhash: --mode must be map or multimap, got '" + name + "'");
}

// Index = the enum's value; the first entry is the correct structure.
const std::vector<SlabHashMutantInfo>& slab_hash_mutants() {
  static const std::vector<SlabHashMutantInfo> m = {
      {"none", "the correct structure", true, true},
      {"slab_local_uniqueness", "REPLACE reuses tombstones, checking uniqueness only in the current slab: duplicate keys after deletes", true, false},
      {"delete_by_exchange", "DELETE swaps EMPTY into the slot without comparing the pair it saw: a concurrent insert into the freed slot is lost (ABA)", false, true},
      {"torn_read", "SEARCH takes key and value from two separate 32-bit loads while REPLACE writes the pair with one 64-bit CAS", true, true},
      {"link_leak", "a losing slab-link CAS keeps its new slab allocated: a leak", true, true},
      {"link_free_winner", "a losing slab-link CAS frees the winner's slab: use after free", true, true},
      {"no_reread_after_failed_cas", "after a failed CAS, REPLACE tries the next lane of its stale read instead of reading the slab again: duplicate keys (in multimap mode a duplicate is no bug)", true, false},
      {"unguarded_absent", "SEARCH and DELETE answer absent from a slab read that no delete guard validated: a torn read of one slab misses an instance present throughout", false, true},
  };
  return m;
}

slab_hash_mutant parse_slab_hash_mutant(const std::string& name) {
  const auto& all = slab_hash_mutants();
  for (size_t i = 0; i < all.size(); ++i)
    if (all[i].name == name) return static_cast<slab_hash_mutant>(i);
  throw std::invalid_argument("slabhash has no mutant \"" + name + "\" (see --list-mutants)");
}

std::string slab_hash_mutant_name(slab_hash_mutant m) { return slab_hash_mutants()[static_cast<size_t>(m)].name; }

WorkloadSpec slab_hash_workload(const SlabHashConfig& c, uint64_t seed) {
  WorkloadSpec w;
  w.seed = seed;
  w.operations = uint64_t(c.teams) * 32 * c.ops_per_lane;
  w.keys = c.keys;
  w.mix = c.mix;
  w.kinds = c.mode == slab_hash_mode::map ? OpKinds{OpKind::Upsert, OpKind::Erase, OpKind::Find}
                                          : OpKinds{OpKind::Insert, OpKind::Erase, OpKind::Find};
  w.unique_values = true;
  return w;
}

void slab_hash_function(uint64_t seed, uint32_t& a, uint32_t& b) {
  uint64_t z = seed * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
  z = (z ^ (z >> 31)) * 0xbf58476d1ce4e5b9ull;
  a = 1 + static_cast<uint32_t>(z % (slab_hash::kPrime - 1));
  b = static_cast<uint32_t>((z >> 32) % slab_hash::kPrime);
}

SlabHashMemory::SlabHashMemory(const SlabHashConfig& c)
    : base_slabs(size_t(c.buckets) * 32, slab_hash::kEmptyKey),
      slabs(size_t(c.super_blocks) * c.blocks_per_super * slab_alloc::kSlabsPerBlock * 32, slab_hash::kEmptyKey),
      bitmaps(size_t(c.super_blocks) * c.blocks_per_super * 32, 0) {}

slab_hash slab_hash_view(const SlabHashConfig& c, uint64_t seed, uint32_t* base_slabs, uint32_t* slabs, uint32_t* bitmaps) {
  slab_hash h;
  h.base_slabs = base_slabs;
  h.alloc.slabs = slabs;
  h.alloc.bitmaps = bitmaps;
  h.alloc.super_blocks = c.super_blocks;
  h.alloc.blocks_per_super = c.blocks_per_super;
  h.buckets = c.buckets;
  slab_hash_function(seed, h.hash_a, h.hash_b);
  h.mode = c.mode;
  h.mutant = c.mutant;
  return h;
}

slab_hash SlabHashMemory::view(const SlabHashConfig& c, uint64_t seed) {
  return slab_hash_view(c, seed, base_slabs.data(), slabs.data(), bitmaps.data());
}

std::vector<std::string> check_slab_hash_invariants(const SlabHashMemory& m, const slab_hash& h) {
  std::vector<std::string> bad;
  auto note = [&](std::string s) {
    if (bad.size() < 20) bad.push_back(std::move(s));
  };
  const size_t total_slabs = size_t(h.alloc.blocks()) * slab_alloc::kSlabsPerBlock;
  auto allocated = [&](uint32_t handle) {
    const uint32_t unit = slab_alloc::unit_of(handle);
    return (m.bitmaps[size_t(h.alloc.block_of(handle)) * 32 + unit / 32] >> (unit % 32)) & 1u;
  };
  auto index_of = [&](uint32_t handle) { return size_t(h.alloc.block_of(handle)) * slab_alloc::kSlabsPerBlock + slab_alloc::unit_of(handle); };
  std::vector<uint32_t> seen_in(total_slabs, UINT32_MAX);
  std::map<uint32_t, uint32_t> live;  // key -> live copies
  for (uint32_t b = 0; b < h.buckets; ++b) {
    const uint32_t* words = m.base_slabs.data() + size_t(b) * 32;
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
      words = m.slabs.data() + i * 32;
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

}  // namespace warpcheck
