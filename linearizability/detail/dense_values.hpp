// Dense indices for the values a procedure meets, numbered all at once by
// one radix sort instead of one hash-table probe a value: at 10^7 distinct
// values each probe is a cache miss (4.3 s of a 22 s map check); the sort
// reads and writes in sequence. The distinct values are numbered in
// ascending order, so a value is looked up again by binary search.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <vector>

#include "linearizability/detail/radix_order.hpp"

namespace warpcheck::detail {

class DenseValues {
 public:
  void clear() {
    met_.clear();
    distinct_.clear();
    index_of_.clear();
  }
  void reserve(size_t n) { met_.reserve(n); }

  // A value met; returns its ticket, which number() turns into its index.
  uint32_t add(int64_t value) {
    met_.push_back(value);
    return uint32_t(met_.size() - 1);
  }

  // Numbers the distinct values met, in ascending order.
  void number() {
    std::vector<uint32_t> order(met_.size());
    std::iota(order.begin(), order.end(), 0u);
    radix_order_by(order, [&](uint32_t t) { return uint64_t(met_[t]) ^ (uint64_t(1) << 63); });
    index_of_.resize(met_.size());
    distinct_.clear();
    for (uint32_t t : order) {
      if (distinct_.empty() || distinct_.back() != met_[t]) distinct_.push_back(met_[t]);
      index_of_[t] = uint32_t(distinct_.size() - 1);
    }
  }

  uint32_t index(uint32_t ticket) const { return index_of_[ticket]; }
  size_t size() const { return distinct_.size(); }
  int64_t value(uint32_t index) const { return distinct_[index]; }

  // The index of a value met, if it was.
  std::optional<uint32_t> find(int64_t value) const {
    const auto it = std::lower_bound(distinct_.begin(), distinct_.end(), value);
    if (it == distinct_.end() || *it != value) return std::nullopt;
    return uint32_t(it - distinct_.begin());
  }

 private:
  std::vector<int64_t> met_;       // by ticket
  std::vector<int64_t> distinct_;  // by index, ascending
  std::vector<uint32_t> index_of_;  // by ticket
};

}  // namespace warpcheck::detail
