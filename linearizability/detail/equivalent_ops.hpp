// Operations made equivalent, and the equivalent ones grouped, for the
// search (linearizability/detail/search.hpp's header has why both are
// sound): written values nobody observes renamed to one placeholder, so
// that concurrent unread writes become equivalent; operations with the
// same effect on every state (same kind, arguments, results and pending
// flag; batches by their keys) numbered as one class.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <unordered_set>
#include <vector>

#include <absl/container/flat_hash_map.h>

#include "models/base/long_step.hpp"
#include "models/base/splitmix.hpp"
#include "models/op.hpp"

namespace warpcheck::detail {

// Renames the values of `data` (kArgValue arguments, per the model's
// operation table `ops`) that no completed result and no CAS expected
// value mentions. Only for models whose values are opaque (OpaqueValuesModel).
inline void rename_unobserved_values(std::vector<OpData>& data, std::span<const OpSpec> ops) {
  auto args_of = [&](OpKind kind) -> uint8_t {
    for (const OpSpec& spec : ops)
      if (spec.kind == kind) return spec.args;
    return 0;
  };
  // Appended pieces are compared by their text, joined: none is unobserved.
  for (const OpData& d : data)
    if (d.kind == OpKind::Append) return;
  std::unordered_set<int64_t> observed;
  for (const OpData& d : data) {
    if (!d.pending && d.result_kind == ResultKind::Value) observed.insert(d.result);
    if (args_of(d.kind) & kArgExpected) observed.insert(d.expected);
  }
  int64_t placeholder = INT64_MIN;
  while (observed.count(placeholder)) ++placeholder;
  for (OpData& d : data)
    if ((args_of(d.kind) & kArgValue) && !observed.count(d.value)) d.value = placeholder;
}

// class_of[i]: the class of data[i], numbered in order of first appearance;
// class_size[c]: how many operations class c holds.
inline void classify_equivalent(const std::vector<OpData>& data, const int64_t* pool, std::vector<uint32_t>& class_of,
                                std::vector<uint32_t>& class_size) {
  const uint32_t n = uint32_t(data.size());
  struct Key {
    const OpData* d;
    const int64_t* pool;
    bool operator==(const Key& o) const {
      const OpData &a = *d, &b = *o.d;
      return a.kind == b.kind && a.pending == b.pending && a.result_kind == b.result_kind && a.key == b.key &&
             a.value == b.value && a.expected == b.expected && a.result == b.result && a.keys_count == b.keys_count &&
             a.out_count == b.out_count && std::equal(pool + a.keys_begin, pool + a.keys_begin + a.keys_count, pool + b.keys_begin) &&
             std::equal(pool + a.out_begin, pool + a.out_begin + a.out_count, pool + b.out_begin);
    }
  };
  struct KeyHash {
    size_t operator()(const Key& k) const {
      const OpData& d = *k.d;
      uint64_t x = mix64(uint64_t(d.kind) | uint64_t(d.pending) << 8 | uint64_t(d.result_kind) << 16);
      for (int64_t v : {d.key, d.value, d.expected, d.result}) x = mix64(x ^ uint64_t(v));
      for (uint32_t i = 0; i < d.keys_count; ++i) x = mix64(x ^ uint64_t(k.pool[d.keys_begin + i]));
      for (uint32_t i = 0; i < d.out_count; ++i) x = mix64(x ^ uint64_t(k.pool[d.out_begin + i]) ^ 0x51);
      return size_t(x);
    }
  };
  absl::flat_hash_map<Key, uint32_t, KeyHash> ids;
  ids.reserve(n * 2);
  class_of.resize(n);
  class_size.clear();
  for (uint32_t i = 0; i < n; ++i) {
    if (i % 65536 == 65535) poll_long_step();
    auto [it, fresh] = ids.try_emplace(Key{&data[i], pool}, uint32_t(class_size.size()));
    if (fresh) class_size.push_back(0);
    class_of[i] = it->second;
    ++class_size[it->second];
  }
}

}  // namespace warpcheck::detail
