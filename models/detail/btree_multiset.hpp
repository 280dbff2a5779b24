// The priority queue's state: a multiset of int64 keys in a B-tree
// (absl::btree_multiset), so that a push of k keys into a queue of n costs
// O(k log n) and a pop of the k smallest O(k + log n), where a sorted vector
// paid O(n) per key. A B-tree keeps keys in cache-line-sized nodes: at a
// million keys it is several times faster than a node-per-key tree
// (std::multiset) for the same bounds. The hash is a sum of per-key mixes,
// independent of insertion order, maintained as keys come and go.
#pragma once

#include <absl/container/btree_set.h>

#include <cstdint>

#include "models/base/long_step.hpp"
#include "models/base/splitmix.hpp"

namespace warpcheck::detail {

class BTreeMultiset {
 public:
  using const_iterator = absl::btree_multiset<int64_t>::const_iterator;

  uint32_t size() const { return static_cast<uint32_t>(keys_.size()); }
  bool empty() const { return keys_.empty(); }
  // About what the tree holds on the heap (nodes of 256 bytes, half to
  // fully used); the search adds it to its memory account.
  size_t heap_bytes() const { return keys_.size() * sizeof(int64_t) * 3 / 2; }
  uint64_t hash() const { return hash_; }
  const_iterator begin() const { return keys_.begin(); }
  const_iterator end() const { return keys_.end(); }
  int64_t front() const { return *keys_.begin(); }

  bool contains(int64_t k) const { return keys_.find(k) != keys_.end(); }
  void insert(int64_t k) {
    keys_.insert(k);
    hash_ += mix64(static_cast<uint64_t>(k));
  }
  // Removes one instance; false when there is none.
  bool erase_one(int64_t k) {
    auto it = keys_.find(k);
    if (it == keys_.end()) return false;
    keys_.erase(it);
    hash_ -= mix64(static_cast<uint64_t>(k));
    return true;
  }
  // Removes the n smallest keys (n <= size()).
  void erase_front(uint32_t n) {
    auto last = keys_.begin();
    for (uint32_t i = 0; i < n; ++i, ++last) {
      if (i % kKeysPerPoll == kKeysPerPoll - 1) poll_long_step();
      hash_ -= mix64(static_cast<uint64_t>(*last));
    }
    keys_.erase(keys_.begin(), last);
  }

  friend bool operator==(const BTreeMultiset& a, const BTreeMultiset& b) {
    if (a.hash_ != b.hash_ || a.keys_.size() != b.keys_.size()) return false;
    uint32_t i = 0;
    for (auto x = a.keys_.begin(), y = b.keys_.begin(); x != a.keys_.end(); ++x, ++y, ++i) {
      if (i % kKeysPerPoll == kKeysPerPoll - 1) poll_long_step();
      if (*x != *y) return false;
    }
    return true;
  }

 private:
  absl::btree_multiset<int64_t> keys_;
  uint64_t hash_ = 0;
};

}  // namespace warpcheck::detail
