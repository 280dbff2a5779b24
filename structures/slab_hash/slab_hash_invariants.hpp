// The slab hash's invariants over its memory at rest (host memory: after a
// simulator or threads run, or copied back from the GPU): every linked slab
// allocated and in exactly one list, no allocated slab unreachable, every
// key in its bucket, and (map mode) at most one live copy of a key. The
// messages of those broken, at most 20; empty when they hold.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "structures/slab_hash/slab_hash.hpp"

namespace warpcheck::structures {

inline std::vector<std::string> slab_hash_invariants(const slab_hash& h) {
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

}  // namespace warpcheck::structures
