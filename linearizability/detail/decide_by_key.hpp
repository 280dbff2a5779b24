// The driver the keyed distinct-value procedures share: one decision per
// part (a key, or the whole history for a single register), on threads
// when there is enough work, and the answer of the first part in key order
// that is not linearizable; otherwise the parts' witnesses merged.
#pragma once

#include <atomic>
#include <mutex>
#include <span>
#include <vector>

#include "linearizability/detail/parallel_parts.hpp"
#include "linearizability/distinct_value_check.hpp"
#include "linearizability/partition.hpp"

namespace warpcheck::detail {

// Decision: constructible from the history, with
//   bool decide(int64_t key, std::span<const uint32_t> ops, std::vector<uint32_t>& order)
// (true with the part's witness in `order`) and DistinctValueCheck& finding().
template <class Decision>
DistinctValueCheck decide_by_key(const History& h, bool by_key) {
  const Partitions parts = partition_history(h, by_key);
  std::vector<std::vector<uint32_t>> orders(parts.count());
  std::vector<Decision> workers(parallel_workers(h.ops.size()), Decision(h));
  // Parts past one found are skipped, every part before it is decided.
  std::atomic<size_t> first_found{parts.count()};
  std::mutex found;
  DistinctValueCheck finding;
  parallel_parts(parts.count(), h.ops.size(), [&](size_t p, unsigned worker) {
    if (p > first_found.load(std::memory_order_relaxed)) return;
    const std::span<const uint32_t> ops(parts.ops.data() + parts.begin[p], parts.size(p));
    if (workers[worker].decide(parts.by_key ? parts.key[p] : 0, ops, orders[p])) return;
    const std::lock_guard<std::mutex> lock(found);
    if (p < first_found.load(std::memory_order_relaxed)) {
      first_found.store(p, std::memory_order_relaxed);
      finding = std::move(workers[worker].finding());
    }
  });
  if (first_found.load() < parts.count()) {
    finding.parts = parts.count();
    return finding;
  }
  DistinctValueCheck proved;
  proved.outcome = DistinctValueCheck::Outcome::Linearizable;
  proved.order = parts.count() == 1 ? std::move(orders[0]) : merge_orders(h, orders);
  proved.parts = parts.count();
  return proved;
}

}  // namespace warpcheck::detail
