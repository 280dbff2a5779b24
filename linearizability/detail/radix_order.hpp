// Positions 0..n-1 ordered stably by 64-bit keys, by LSD radix sort (16 bits
// a pass, passes whose digit never varies skipped), polling the budget
// between passes. The search orders millions of operations by invocation
// and by response; a comparison sort reaching into the history's records
// took seconds there, and could not be interrupted.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "models/detail/long_step.hpp"

namespace warpcheck::detail {

// Reorders `order` (positions into `keys`) stably by keys[position].
inline void radix_order(const std::vector<uint64_t>& keys, std::vector<uint32_t>& order) {
  if (order.size() < 65536) {  // small: a comparison sort costs less than the digit tables
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
    return;
  }
  std::vector<uint32_t> next(order.size());
  std::vector<size_t> count(65537);
  for (int shift = 0; shift < 64; shift += 16) {
    poll_long_step();
    std::fill(count.begin(), count.end(), 0);
    for (uint32_t p : order) ++count[((keys[p] >> shift) & 0xffff) + 1];
    bool one_digit = false;
    for (size_t d = 1; d <= 65536; ++d) one_digit |= count[d] == order.size();
    if (one_digit) continue;
    for (size_t d = 1; d <= 65536; ++d) count[d] += count[d - 1];
    for (uint32_t p : order) next[count[(keys[p] >> shift) & 0xffff]++] = p;
    order.swap(next);
  }
}

}  // namespace warpcheck::detail
