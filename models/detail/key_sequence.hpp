// The state of a queue or a stack: int64 values in order, front to back,
// with a hash of the order kept incrementally. Two sequences with the same
// values in a different order must hash apart (unlike the key sets of the
// other models), so the hash is a polynomial in the positions:
//   hash = sum over i of mix64(value_i) * P^i   (mod 2^64, i = 0 at the front)
// P is odd, hence invertible mod 2^64, so removing the front divides by P;
// every end operation is O(1), and the hash depends only on the contents.
#pragma once

#include <cstdint>

#include "models/base/long_step.hpp"
#include "models/base/splitmix.hpp"
#include "models/detail/small_vector.hpp"

namespace warpcheck::detail {

// The inverse of odd x mod 2^64, by Newton's iteration (each step doubles
// the number of correct low bits; 3 are right to start with).
constexpr uint64_t inverse_mod_2_64(uint64_t x) {
  uint64_t y = x;
  for (int i = 0; i < 6; ++i) y *= 2 - x * y;
  return y;
}

inline constexpr uint64_t sequence_hash_base = 0x9e3779b97f4a7c15ULL;  // odd
static_assert(sequence_hash_base * inverse_mod_2_64(sequence_hash_base) == 1);

class KeySequence {
 public:
  using const_iterator = const int64_t*;

  uint32_t size() const { return items_.size() - head_; }
  bool empty() const { return size() == 0; }
  size_t heap_bytes() const { return items_.heap_bytes(); }
  uint64_t hash() const { return hash_; }
  const_iterator begin() const { return items_.begin() + head_; }
  const_iterator end() const { return items_.end(); }
  int64_t front() const { return items_[head_]; }
  int64_t back() const { return items_[items_.size() - 1]; }

  void push_back(int64_t v) {
    items_.insert_at(items_.size(), v);
    hash_ += mix(v) * power_;
    power_ *= kBase;
  }
  void pop_back() {
    power_ *= kInverse;
    hash_ -= mix(back()) * power_;
    items_.erase_at(items_.size() - 1);
  }
  void push_front(int64_t v) {
    if (head_ > 0) items_[--head_] = v;
    else items_.insert_at(0, v);
    hash_ = hash_ * kBase + mix(v);
    power_ *= kBase;
  }
  // O(1) amortized: the front moves up, and the space below it is given
  // back once it is half the storage.
  void pop_front() {
    hash_ = (hash_ - mix(front())) * kInverse;
    power_ *= kInverse;
    if (++head_ * 2 >= items_.size()) {
      items_.erase_range(0, head_);
      head_ = 0;
    }
  }

  friend bool operator==(const KeySequence& a, const KeySequence& b) {
    if (a.hash_ != b.hash_ || a.size() != b.size()) return false;
    for (uint32_t i = 0; i < a.size(); ++i) {
      if (i % kKeysPerPoll == kKeysPerPoll - 1) poll_long_step();
      if (a.begin()[i] != b.begin()[i]) return false;
    }
    return true;
  }

 private:
  static constexpr uint64_t kBase = sequence_hash_base;
  static constexpr uint64_t kInverse = inverse_mod_2_64(kBase);
  static uint64_t mix(int64_t v) { return mix64(static_cast<uint64_t>(v)); }

  // A search stores a state per configuration: a few values stay inline.
  SmallVector<int64_t, 6> items_;  // items_[head_ ...] front to back
  uint32_t head_ = 0;
  uint64_t hash_ = 0;
  uint64_t power_ = 1;  // kBase^size
};

}  // namespace warpcheck::detail
