// The runnable lanes by priority (PCT, POS): an indexed max-heap, so that
// picking, blocking and re-prioritizing are O(log n) and a strategy keeps
// pace with 512 lanes. Ties go the way the heap holds them (deterministic).
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

namespace warpcheck::sim {

class LaneHeap {
 public:
  explicit LaneHeap(uint32_t lanes) : priority_(lanes), at_(lanes, kAbsent) {}

  int64_t priority(uint32_t lane) const { return priority_[lane]; }
  // Sets a lane's priority, in the heap or out of it.
  void set(uint32_t lane, int64_t p) {
    priority_[lane] = p;
    if (at_[lane] != kAbsent) down(up(at_[lane]));
  }
  void push(uint32_t lane) {
    if (at_[lane] != kAbsent) return;
    at_[lane] = static_cast<uint32_t>(heap_.size());
    heap_.push_back(lane);
    up(at_[lane]);
  }
  void remove(uint32_t lane) {
    const uint32_t i = at_[lane];
    if (i == kAbsent) return;
    at_[lane] = kAbsent;
    const uint32_t moved = heap_.back();
    heap_.pop_back();
    if (i == heap_.size()) return;
    heap_[i] = moved;
    at_[moved] = i;
    down(up(i));
  }
  bool contains(uint32_t lane) const { return at_[lane] != kAbsent; }
  bool empty() const { return heap_.empty(); }
  uint32_t top() const { return heap_.front(); }

 private:
  static constexpr uint32_t kAbsent = UINT32_MAX;
  bool above(uint32_t a, uint32_t b) const { return priority_[heap_[a]] > priority_[heap_[b]]; }
  void swap_at(uint32_t a, uint32_t b) {
    std::swap(heap_[a], heap_[b]);
    at_[heap_[a]] = a;
    at_[heap_[b]] = b;
  }
  uint32_t up(uint32_t i) {
    while (i > 0 && above(i, (i - 1) / 2)) {
      swap_at(i, (i - 1) / 2);
      i = (i - 1) / 2;
    }
    return i;
  }
  void down(uint32_t i) {
    for (;;) {
      uint32_t best = i;
      for (uint32_t c : {2 * i + 1, 2 * i + 2})
        if (c < heap_.size() && above(c, best)) best = c;
      if (best == i) return;
      swap_at(i, best);
      i = best;
    }
  }

  std::vector<int64_t> priority_;
  std::vector<uint32_t> heap_, at_;
};

}  // namespace warpcheck::sim
