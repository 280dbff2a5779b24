// Splitting a history into independently checkable parts.
#pragma once

#include <cstdint>
#include <vector>

#include "linearizability/history.hpp"

namespace warpcheck {

// Parts in compressed form: part p is ops[begin[p] .. begin[p+1]), history
// indices (in invocation order when split by key; a single part is left in
// history order, which the search sorts anyway); key[p] is its key when
// split by key.
struct Partitions {
  std::vector<uint32_t> ops;
  std::vector<size_t> begin;
  std::vector<int64_t> key;
  bool by_key = false;

  size_t count() const { return begin.empty() ? 0 : begin.size() - 1; }
  size_t size(size_t p) const { return begin[p + 1] - begin[p]; }
};

// By key when `by_key` (the model must allow it), else one part.
Partitions partition_history(const History& h, bool by_key);

}  // namespace warpcheck

namespace warpcheck {

// Merges per-part linearization orders (`orders[p]`, history indices) into
// one order of the whole history. Each operation gets the point
// max(invocation of it and of everything before it in its part), which lies
// inside its interval because the part's order respects real time; sorting
// by point (ties: part, then position) then respects real time across parts.
std::vector<uint32_t> merge_orders(const History& h, const std::vector<std::vector<uint32_t>>& orders);

}  // namespace warpcheck
