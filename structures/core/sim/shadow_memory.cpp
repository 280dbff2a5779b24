#include "structures/core/sim/shadow_memory.hpp"

#include <stdexcept>

namespace warpcheck::sim {

std::string_view unit_state_name(core::unit_state s) {
  switch (s) {
    case core::unit_state::uninitialized: return "uninitialized";
    case core::unit_state::allocated: return "allocated";
    case core::unit_state::retired: return "retired";
    case core::unit_state::freed: return "freed";
  }
  return "?";
}

void ShadowMemory::add_pool(const void* base, size_t unit_bytes, size_t units, std::string name,
                            core::unit_state initial) {
  if (unit_bytes == 0 || units == 0) throw std::logic_error("shadow pool " + name + ": empty");
  const auto b = reinterpret_cast<uintptr_t>(base);
  const uintptr_t e = b + unit_bytes * units;
  for (const Pool& p : pools_)
    if (b < p.end && p.begin < e) throw std::logic_error("shadow pool " + name + " overlaps pool " + p.name);
  pools_.push_back({b, e, unit_bytes, std::move(name), std::vector<core::unit_state>(units, initial)});
}

const ShadowMemory::Pool* ShadowMemory::find(uintptr_t a) const {
  for (const Pool& p : pools_)
    if (a >= p.begin && a < p.end) return &p;
  return nullptr;
}

void ShadowMemory::mark(const void* address, core::unit_state state) {
  const auto a = reinterpret_cast<uintptr_t>(address);
  const Pool* p = find(a);
  if (!p) throw std::logic_error("shadow mark outside every registered pool");
  const_cast<Pool*>(p)->state[(a - p->begin) / p->unit_bytes] = state;
}

std::optional<core::unit_state> ShadowMemory::state_of(const void* address) const {
  const auto a = reinterpret_cast<uintptr_t>(address);
  const Pool* p = find(a);
  if (!p) return std::nullopt;
  return p->state[(a - p->begin) / p->unit_bytes];
}

std::optional<std::string> ShadowMemory::name_of(const void* address) const {
  const auto a = reinterpret_cast<uintptr_t>(address);
  const Pool* p = find(a);
  if (!p) return std::nullopt;
  const uint64_t off = (a - p->begin) % p->unit_bytes;
  std::string name = p->name;
  name += '[';
  name += std::to_string((a - p->begin) / p->unit_bytes);
  name += ']';
  if (off) name += '+' + std::to_string(off);
  return name;
}

std::optional<uintptr_t> ShadowMemory::unit_base(const void* address) const {
  const auto a = reinterpret_cast<uintptr_t>(address);
  const Pool* p = find(a);
  if (!p) return std::nullopt;
  return a - (a - p->begin) % p->unit_bytes;
}

size_t ShadowMemory::unit_bytes(const void* address) const {
  const Pool* p = find(reinterpret_cast<uintptr_t>(address));
  return p ? p->unit_bytes : 0;
}

std::optional<ShadowViolation> ShadowMemory::check_slow(const void* address, core::access a) const {
  const auto addr = reinterpret_cast<uintptr_t>(address);
  const Pool* p = find(addr);
  if (!p) return std::nullopt;
  const uint64_t unit = (addr - p->begin) / p->unit_bytes;
  const core::unit_state s = p->state[unit];
  // A read-modify-write that changes nothing (a failed CAS on a zombie's
  // lock) is a read: Simulator::changed_by_rmw checks the ones that write.
  const bool ok = s == core::unit_state::allocated ||
                  (s == core::unit_state::retired && (a == core::access::load || a == core::access::rmw));
  if (ok) return std::nullopt;
  return ShadowViolation{p->name, unit, addr, s, a};
}

}  // namespace warpcheck::sim
