#include "stress/seam/structure_memory.hpp"

#include <cstring>

#include "structures/core/sim/shadow_memory.hpp"

namespace warpcheck {

HostMemory::HostMemory(MemoryLayout layout) : layout_(std::move(layout)) {
  // Aligned as cudaMalloc aligns (256 bytes): which words share a 128-byte
  // segment (the simulator's coalesced loads) must not depend on the heap.
  constexpr size_t kAlign = 256;
  for (const ArraySpec& a : layout_) {
    storage_.emplace_back((a.bytes() + kAlign) / 8 + 1);  // never empty: a base address exists
    const auto raw = reinterpret_cast<uintptr_t>(storage_.back().data());
    void* base = reinterpret_cast<void*>((raw + kAlign - 1) / kAlign * kAlign);
    std::memset(base, a.fill, a.bytes());
    pointers_.push_back(base);
  }
}

void HostMemory::add_shadow_pools(sim::ShadowMemory& shadow) const {
  for (size_t i = 0; i < layout_.size(); ++i) {
    const ArraySpec& a = layout_[i];
    if (a.units) shadow.add_pool(pointers_[i], a.unit_bytes, a.units, a.name, a.shadow);
  }
}

}  // namespace warpcheck
