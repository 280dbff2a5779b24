// Elements ordered stably by 64-bit keys, by LSD radix sort (16 bits a
// pass, passes whose digit never varies skipped), polling the budget
// between passes. The search orders millions of operations by invocation
// and by response; a comparison sort reaching into the history's records
// took seconds there, and could not be interrupted.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "models/base/long_step.hpp"

namespace warpcheck::detail {

// Reorders `order` stably by key_of(element). The keys are gathered once
// and carried along with the elements, so each pass reads and writes in
// sequence instead of reaching into the records for every comparison.
// With `sorted`, the keys are left there in their new order.
template <class KeyOf>
void radix_order_by(std::vector<uint32_t>& order, KeyOf key_of, std::vector<uint64_t>* sorted = nullptr) {
  const size_t n = order.size();
  if (n < 65536) {  // small: a comparison sort costs less than the digit tables
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return key_of(a) < key_of(b); });
    if (sorted) {
      sorted->resize(n);
      for (size_t j = 0; j < n; ++j) (*sorted)[j] = key_of(order[j]);
    }
    return;
  }
  std::vector<uint64_t> keys(n), next_keys(n);
  for (size_t j = 0; j < n; ++j) keys[j] = key_of(order[j]);
  std::vector<uint32_t> next(n);
  std::vector<size_t> count(65537);
  for (int shift = 0; shift < 64; shift += 16) {
    poll_long_step();
    std::fill(count.begin(), count.end(), 0);
    for (uint64_t k : keys) ++count[((k >> shift) & 0xffff) + 1];
    bool one_digit = false;
    for (size_t d = 1; d <= 65536; ++d) one_digit |= count[d] == n;
    if (one_digit) continue;
    for (size_t d = 1; d <= 65536; ++d) count[d] += count[d - 1];
    for (size_t j = 0; j < n; ++j) {
      const size_t to = count[(keys[j] >> shift) & 0xffff]++;
      next_keys[to] = keys[j];
      next[to] = order[j];
    }
    order.swap(next);
    keys.swap(next_keys);
  }
  if (sorted) sorted->swap(keys);
}

// Reorders `order` (positions into `keys`) stably by keys[position].
inline void radix_order(const std::vector<uint64_t>& keys, std::vector<uint32_t>& order) {
  radix_order_by(order, [&](uint32_t p) { return keys[p]; });
}

}  // namespace warpcheck::detail
