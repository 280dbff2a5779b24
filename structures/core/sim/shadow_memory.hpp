// Shadow state for memory that structures manage themselves (node pools,
// slab allocators, chunk pools). A normal sanitizer sees one big live
// allocation; here each unit has a state, and every access through the
// memory layer is checked against it:
//   uninitialized  never handed out: any access is reported
//   allocated      anything goes
//   retired        unlinked but maybe still reachable (a zombie): loads are
//                  allowed (concurrent traversals may still pass through),
//                  and read-modify-writes that change nothing (a failed
//                  CAS); stores and changing read-modify-writes are reported
//   freed          back in the pool: any access is reported (use after free)
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "structures/core/memory_order.hpp"
#include "structures/core/team.hpp"

namespace warpcheck::sim {

std::string_view unit_state_name(core::unit_state s);

struct ShadowViolation {
  std::string pool;
  uint64_t unit = 0;
  uintptr_t address = 0;
  core::unit_state state{};
  core::access access{};
};

class ShadowMemory {
 public:
  // Registers `units` units of `unit_bytes` from `base`. Pools must not overlap.
  void add_pool(const void* base, size_t unit_bytes, size_t units, std::string name, core::unit_state initial);
  // Sets the state of the unit containing `address`; an address outside
  // every pool is a structure bug and throws std::logic_error.
  void mark(const void* address, core::unit_state state);
  std::optional<core::unit_state> state_of(const void* address) const;
  // "pool[unit]+offset" for an address inside a pool, for reports.
  std::optional<std::string> name_of(const void* address) const;
  // The first byte of the unit holding `address`, inside a pool.
  std::optional<uintptr_t> unit_base(const void* address) const;
  // The bytes of the units of the pool holding `address` (0: outside every pool).
  size_t unit_bytes(const void* address) const;
  // The violation an access would be, or nullopt.
  std::optional<ShadowViolation> check(const void* address, core::access a) const {
    if (pools_.empty()) return std::nullopt;
    return check_slow(address, a);
  }

 private:
  struct Pool {
    uintptr_t begin, end;
    size_t unit_bytes;
    std::string name;
    std::vector<core::unit_state> state;
  };
  const Pool* find(uintptr_t a) const;
  std::optional<ShadowViolation> check_slow(const void* address, core::access a) const;
  std::vector<Pool> pools_;
};

}  // namespace warpcheck::sim
