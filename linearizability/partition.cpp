// Bulk sorting for partitioning runs through Thrust: on its OpenMP back-end
// here when the history is large enough (bulk.hpp), and unchanged on
// the CUDA back-end when histories are sorted on the device.
#include "linearizability/partition.hpp"

#include <thrust/sort.h>

#include <algorithm>
#include <functional>
#include <numeric>

#include "linearizability/detail/bulk.hpp"

namespace warpcheck {

Partitions partition_history(const History& h, bool by_key) {
  Partitions parts;
  parts.by_key = by_key;
  const size_t n = h.ops.size();
  parts.ops.resize(n);
  std::iota(parts.ops.begin(), parts.ops.end(), 0u);
  parts.begin.push_back(0);
  if (!by_key) {  // one part: the search orders it by invocation itself
    if (n) parts.begin.push_back(n);
    return parts;
  }
  std::vector<uint64_t> calls(n);
  for (size_t i = 0; i < n; ++i) calls[i] = h.ops[i].call;
  detail::with_bulk_policy(n, [&](auto policy) { thrust::stable_sort_by_key(policy, calls.begin(), calls.end(), parts.ops.begin()); });
  // Stable: invocation order survives inside each key.
  std::vector<int64_t> keys(n);
  for (size_t i = 0; i < n; ++i) keys[i] = h.ops[parts.ops[i]].data.key;
  // One hot key (the contended case) needs no second sort.
  if (std::adjacent_find(keys.begin(), keys.end(), std::not_equal_to<>()) != keys.end())
    detail::with_bulk_policy(n, [&](auto policy) { thrust::stable_sort_by_key(policy, keys.begin(), keys.end(), parts.ops.begin()); });
  for (size_t i = 0; i < n; ++i) {
    if (i > 0 && keys[i] != keys[i - 1]) parts.begin.push_back(i);
    if (i == 0 || keys[i] != keys[i - 1]) parts.key.push_back(keys[i]);
  }
  if (n) parts.begin.push_back(n);
  return parts;
}

}  // namespace warpcheck

namespace warpcheck {

std::vector<uint32_t> merge_orders(const History& h, const std::vector<std::vector<uint32_t>>& orders) {
  if (orders.size() == 1) return orders[0];  // its points already ascend: the sort below would keep it
  size_t total = 0;
  for (const auto& o : orders) total += o.size();
  std::vector<uint64_t> points;
  std::vector<uint32_t> merged;
  points.reserve(total);
  merged.reserve(total);
  for (const auto& o : orders) {
    uint64_t point = 0;
    for (uint32_t i : o) {
      point = std::max(point, h.ops[i].call);
      points.push_back(point);
      merged.push_back(i);
    }
  }
  detail::with_bulk_policy(total, [&](auto policy) { thrust::stable_sort_by_key(policy, points.begin(), points.end(), merged.begin()); });
  return merged;
}

}  // namespace warpcheck
