#include "stress/harness/structure_memory.hpp"

#include <cstring>

#include "structures/core/sim/shadow_memory.hpp"

namespace warpcheck {

HostMemory::HostMemory(MemoryLayout layout) : layout_(std::move(layout)) {
  for (const ArraySpec& a : layout_) {
    storage_.emplace_back((a.bytes() + 7) / 8 + 1);  // never empty: a base address exists
    std::memset(storage_.back().data(), a.fill, a.bytes());
    pointers_.push_back(storage_.back().data());
  }
}

void HostMemory::add_shadow_pools(sim::ShadowMemory& shadow) const {
  for (size_t i = 0; i < layout_.size(); ++i) {
    const ArraySpec& a = layout_[i];
    if (a.units) shadow.add_pool(pointers_[i], a.unit_bytes, a.units, a.name, a.shadow);
  }
}

}  // namespace warpcheck
