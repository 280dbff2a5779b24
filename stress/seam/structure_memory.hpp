// A structure's memory, described once as arrays of units and laid out from
// that description in host memory (the simulator, real threads, invariant
// checks) or on the device (stress/gpu/device_buffer.cuh): one place sets
// up a structure's memory for every back-end.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "structures/core/team.hpp"

namespace warpcheck {

namespace sim {
class ShadowMemory;
}

struct ArraySpec {
  std::string name;       // in reports: "slabs[12]+8"
  size_t unit_bytes = 4;  // a unit: a lock word, a slab, a node
  size_t units = 1;
  uint8_t fill = 0;       // every byte's initial value
  core::unit_state shadow = core::unit_state::allocated;  // the simulator's initial shadow state of each unit
  size_t bytes() const { return unit_bytes * units; }
};
using MemoryLayout = std::vector<ArraySpec>;

// The arrays' base addresses, in layout order (host or device memory).
using ArrayPointers = std::span<void* const>;

class HostMemory {
 public:
  explicit HostMemory(MemoryLayout layout);
  HostMemory(HostMemory&&) = default;
  HostMemory& operator=(HostMemory&&) = default;
  const MemoryLayout& layout() const { return layout_; }
  ArrayPointers pointers() const { return pointers_; }
  template <class T>
  T* array(size_t i) const {
    return static_cast<T*>(pointers_[i]);
  }
  void* bytes(size_t i) const { return pointers_[i]; }
  // Every array as a shadow pool of its units, named for reports.
  void add_shadow_pools(sim::ShadowMemory& shadow) const;

 private:
  MemoryLayout layout_;
  std::vector<std::vector<uint64_t>> storage_;  // with room to align each array to 256 bytes
  std::vector<void*> pointers_;
};

}  // namespace warpcheck
