// The operations a client driver's teams run: drawn from the seed alone,
// so every thread of a tile derives the same one, and a rerun the same
// plan. Values are distinct (a find's answer names its insert).
#pragma once
#include <cstdint>

#include "models/base/splitmix.hpp"
#include "models/op.hpp"

namespace warpcheck::clients {

struct op_plan {
  uint64_t seed = 1;
  uint32_t keys = 64;             // keys are 0 .. keys-1 (finds and erases also ask keys .. 2*keys-1 when `absent`)
  uint32_t ops_per_team = 8;
  uint32_t insert = 40, erase = 20, find = 40;  // weights
  bool absent = false;            // lookups and erases of keys never inserted, too
};

struct planned_op {
  OpKind kind;
  int64_t key, value;
};

// A team's i-th operation, from the seed alone.
__host__ __device__ inline planned_op plan_op(const op_plan& p, uint64_t team, uint32_t i, bool erase_ok) {
  const uint64_t h = detail::mix64(p.seed * 0x100000001b3ull ^ detail::mix64(team * 1000003ull + i));
  const uint32_t total = p.insert + (erase_ok ? p.erase : 0) + p.find;
  const uint32_t pick = static_cast<uint32_t>(h % total);
  const uint32_t range = p.absent ? 2 * p.keys : p.keys;
  planned_op op;
  op.kind = pick < p.insert ? OpKind::Insert : pick < p.insert + p.find ? OpKind::Find : OpKind::Erase;
  op.key = static_cast<int64_t>((h >> 20) % (op.kind == OpKind::Insert ? p.keys : range));
  op.value = static_cast<int64_t>(team * p.ops_per_team + i + 1);  // distinct: a find names its insert
  return op;
}

}  // namespace warpcheck::clients
