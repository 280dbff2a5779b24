// Operation mixes for stress runs. Each operation is a pure function of
// (seed, index), so a workload is generated in bulk with Thrust (on the GPU
// for GPU runs, on the OpenMP back-end here) and is identical on both.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "structures/core/workload_op.hpp"

namespace warpcheck {

struct OpMix {
  uint32_t insert = 50, erase = 20, contains = 30;  // relative weights
};

// "insert=50,erase=20,contains=30" (also delete= for erase, search= for
// contains); throws std::invalid_argument with what is wrong.
OpMix parse_op_mix(const std::string& text);
std::string format_op_mix(const OpMix& mix);

// The operation each weight of a mix stands for in a given structure.
struct OpKinds {
  OpKind insert = OpKind::Insert, erase = OpKind::Erase, search = OpKind::Contains;
};

struct WorkloadSpec {
  uint64_t seed = 1;
  uint64_t operations = 64;
  int64_t keys = 8;  // keys drawn uniformly from [0, keys)
  OpMix mix;
  OpKinds kinds;
  // Values are operation index + 1: every written value is unique, so a
  // read of a value never written, or written later, is caught at once.
  bool unique_values = false;
};

// The generator itself, usable from device code.
struct workload_generator {
  uint64_t seed;
  int64_t keys;
  uint32_t insert, erase, contains;
  OpKinds kinds;
  bool unique_values;
  WC_HD static uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  WC_HD core::workload_op operator()(uint64_t i) const {
    const uint64_t h = mix64(seed * 0x9e3779b97f4a7c15ull + mix64(i + 1));
    const uint32_t pick = static_cast<uint32_t>(h % (insert + erase + contains));
    core::workload_op op;
    op.kind = pick < insert ? kinds.insert : pick < insert + erase ? kinds.erase : kinds.search;
    op.key = static_cast<int64_t>((h >> 32) % static_cast<uint64_t>(keys));
    op.value = unique_values && op.kind == kinds.insert ? static_cast<int64_t>(i + 1) : 0;
    return op;
  }
};

workload_generator make_generator(const WorkloadSpec& spec);
std::vector<core::workload_op> make_workload(const WorkloadSpec& spec);

}  // namespace warpcheck
