// Memo of visited search configurations: (set of linearized operations,
// model state). A configuration seen before cannot lead anywhere new, so the
// search prunes it (Lowe's refinement of Wing & Gong). Only pruning depends
// on it, so a hash collision costs an equality check, never soundness.
//
// The linearized set is stored windowed: every operation below `low` (the
// first unlinearized one, in call order) is linearized, and none above `high`
// (the last linearized one) is, so only the bitset words in between are
// kept. With the just-in-time search, that window is bounded by how many
// operations overlap, not by the history's length.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "linearizability/budget.hpp"
#include "linearizability/detail/huge_page_allocator.hpp"
#include "models/model_traits.hpp"

namespace warpcheck::detail {

template <class State>
class MemoCache {
 public:
  // Growth asks `budget` first (a doubling table or array is the largest
  // single allocation a search makes); a refusal throws BudgetExhausted.
  void reset(size_t expected_entries, const Budget* budget = nullptr) {
    budget_ = budget;
    size_t cap = 64;
    while (cap < expected_entries * 2) cap *= 2;
    if (budget_ && table_.size() != cap) budget_->reserve(cap * sizeof(Slot));
    if (table_.size() != cap || count_ != 0) table_.assign(cap, Slot{});
    count_ = 0;
    state_heap_bytes_ = 0;
    words_.clear();
    states_.clear();
  }

  // Inserts the configuration; returns false when it was already present.
  // Without `store_state` the state is a function of the linearized set
  // (every operation in it is invertible) and is not kept.
  bool insert(uint64_t hash, int32_t low, int32_t high, const uint64_t* bits, const State& state, bool store_state = true) {
    hash |= 1;  // 0 marks an empty slot
    const uint32_t first = uint32_t(low) >> 6;
    const uint32_t nwords = high >= low ? (uint32_t(high) >> 6) - first + 1 : 0;
    size_t i = hash & (table_.size() - 1);
    for (;; i = (i + 1) & (table_.size() - 1)) {
      const Slot& s = table_[i];
      if (s.hash == 0) break;
      if (s.hash == hash && s.low == low && s.high == high && (s.state == kNoState) == !store_state &&
          std::equal(bits + first, bits + first + nwords, words_.data() + s.words) &&
          (s.state == kNoState || states_[s.state] == state))
        return false;
    }
    make_room(words_, nwords);
    if (store_state) make_room(states_, 1);
    // Past half full the table doubles; when the budget refuses the doubled
    // table, the table fills further instead (probes get longer) and only
    // at nine tenths is the memory budget spent.
    bool grow_now = (count_ + 1) * 2 > table_.size();
    if (grow_now && budget_) {
      try {
        budget_->reserve(table_.size() * 2 * sizeof(Slot));
      } catch (const BudgetExhausted&) {
        if ((count_ + 1) * 10 > table_.size() * 9) throw;
        grow_now = false;
      }
    }
    table_[i] = Slot{hash, store_state ? uint32_t(states_.size()) : kNoState, uint64_t(words_.size()), low, high};
    words_.insert(words_.end(), bits + first, bits + first + nwords);
    if (store_state) {
      states_.push_back(state);
      state_heap_bytes_ += state_heap_bytes(state);
    }
    ++count_;
    if (grow_now) grow();
    return true;
  }

  size_t size() const { return count_; }
  // Everything the cache holds, the states' own heap included (a priority
  // queue's state is the whole queue).
  size_t bytes() const {
    return table_.size() * sizeof(Slot) + words_.capacity() * sizeof(uint64_t) + states_.capacity() * sizeof(State) +
           state_heap_bytes_;
  }

 private:
  static constexpr uint32_t kNoState = UINT32_MAX;
  struct Slot {
    uint64_t hash = 0;
    uint32_t state = 0;
    uint64_t words = 0;
    int32_t low = 0, high = 0;
  };

  // Grows an array by doubling, or by an eighth when the budget refuses
  // the doubling, so that the memory budget is used before it is spent.
  template <class Vector>
  void make_room(Vector& v, size_t extra) {
    if (v.size() + extra <= v.capacity()) return;
    size_t capacity = std::max(v.capacity() * 2, v.size() + extra);
    if (budget_) {
      try {
        budget_->reserve(capacity * sizeof(typename Vector::value_type));
      } catch (const BudgetExhausted&) {
        capacity = std::max(v.capacity() + v.capacity() / 8, v.size() + extra);
        budget_->reserve(capacity * sizeof(typename Vector::value_type));
      }
    }
    v.reserve(capacity);
  }

  void grow() {
    Buffer<Slot> old(table_.size() * 2);
    old.swap(table_);
    for (const Slot& s : old) {
      if (s.hash == 0) continue;
      size_t i = s.hash & (table_.size() - 1);
      while (table_[i].hash != 0) i = (i + 1) & (table_.size() - 1);
      table_[i] = s;
    }
  }

  template <class T>
  using Buffer = std::vector<T, HugePageAllocator<T>>;

  const Budget* budget_ = nullptr;
  Buffer<Slot> table_;
  size_t count_ = 0;
  size_t state_heap_bytes_ = 0;
  Buffer<uint64_t> words_;
  Buffer<State> states_;
};

}  // namespace warpcheck::detail
