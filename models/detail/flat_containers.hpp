// Sorted small containers with an incrementally maintained hash, the
// building blocks of the model states. The hash is a sum of per-element
// mixes, so it is independent of insertion order and survives duplicates.
#pragma once

#include <cstdint>
#include <compare>

#include "models/base/splitmix.hpp"
#include "models/detail/small_vector.hpp"

namespace warpcheck::detail {

// The first index of sorted `items` at which `before` turns false.
template <class Items, class Before>
uint32_t first_not_before(const Items& items, Before before) {
  uint32_t lo = 0, hi = items.size();
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    if (before(items[mid])) lo = mid + 1; else hi = mid;
  }
  return lo;
}

// A multiset of int64 (a set when the caller never inserts duplicates).
class FlatMultiset {
 public:
  uint32_t size() const { return items_.size(); }
  size_t heap_bytes() const { return items_.heap_bytes(); }
  const int64_t* begin() const { return items_.begin(); }
  const int64_t* end() const { return items_.end(); }
  int64_t operator[](uint32_t i) const { return items_[i]; }
  uint64_t hash() const { return hash_; }

  bool contains(int64_t k) const {
    uint32_t i = lower_bound(k);
    return i < items_.size() && items_[i] == k;
  }
  void insert(int64_t k) {
    items_.insert_at(upper_bound(k), k);
    hash_ += mix64(static_cast<uint64_t>(k));
  }
  // Removes one instance; returns false when there is none.
  bool erase_one(int64_t k) {
    uint32_t i = lower_bound(k);
    if (i == items_.size() || items_[i] != k) return false;
    items_.erase_at(i);
    hash_ -= mix64(static_cast<uint64_t>(k));
    return true;
  }
  // Removes the n smallest elements.
  void erase_front(uint32_t n) {
    for (uint32_t i = 0; i < n; ++i) hash_ -= mix64(static_cast<uint64_t>(items_[i]));
    items_.erase_range(0, n);
  }

  friend bool operator==(const FlatMultiset& a, const FlatMultiset& b) {
    return a.hash_ == b.hash_ && a.items_ == b.items_;
  }

 private:
  uint32_t lower_bound(int64_t k) const { return first_not_before(items_, [k](int64_t x) { return x < k; }); }
  uint32_t upper_bound(int64_t k) const { return first_not_before(items_, [k](int64_t x) { return x <= k; }); }

  SmallVector<int64_t, 4> items_;
  uint64_t hash_ = 0;
};

// A multimap of (key, value) pairs kept sorted by (key, value); used as a
// map when the caller keeps one entry per key.
class FlatPairs {
 public:
  struct Entry {
    int64_t first, second;  // key, value
    friend auto operator<=>(const Entry&, const Entry&) = default;
    friend bool operator==(const Entry&, const Entry&) = default;
  };

  uint32_t size() const { return items_.size(); }
  size_t heap_bytes() const { return items_.heap_bytes(); }
  const Entry* begin() const { return items_.begin(); }
  const Entry* end() const { return items_.end(); }
  uint64_t hash() const { return hash_; }

  // Index of the first entry with this key, or size() when there is none.
  uint32_t find_key(int64_t k) const {
    uint32_t i = lower_bound({k, INT64_MIN});
    return (i < items_.size() && items_[i].first == k) ? i : items_.size();
  }
  uint32_t find_pair(int64_t k, int64_t v) const {
    uint32_t i = lower_bound({k, v});
    return (i < items_.size() && items_[i] == Entry{k, v}) ? i : items_.size();
  }
  const Entry& at(uint32_t i) const { return items_[i]; }

  void insert(int64_t k, int64_t v) {
    items_.insert_at(lower_bound({k, v}), Entry{k, v});
    hash_ += entry_hash(k, v);
  }
  void erase_at(uint32_t i) {
    hash_ -= entry_hash(items_[i].first, items_[i].second);
    items_.erase_at(i);
  }
  // Map semantics: replaces every entry of key k with (k, v).
  void assign(int64_t k, int64_t v) {
    for (uint32_t i = find_key(k); i < items_.size() && items_[i].first == k;) erase_at(i);
    insert(k, v);
  }

  friend bool operator==(const FlatPairs& a, const FlatPairs& b) {
    return a.hash_ == b.hash_ && a.items_ == b.items_;
  }

 private:
  static uint64_t entry_hash(int64_t k, int64_t v) {
    return mix_pair(static_cast<uint64_t>(k), static_cast<uint64_t>(v));
  }
  uint32_t lower_bound(Entry e) const { return first_not_before(items_, [e](const Entry& x) { return x < e; }); }

  SmallVector<Entry, 4> items_;
  uint64_t hash_ = 0;
};

}  // namespace warpcheck::detail
