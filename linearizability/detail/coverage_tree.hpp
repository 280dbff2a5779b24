// How many intervals cover each of n cells, for the distinct-value stack
// checker: add or remove an interval of cells, then visit the cells of a
// range that nothing covers any more. A cell uncovered stays so (intervals
// are only removed after the start), so each is visited once over a run.
#pragma once

#include <cstdint>
#include <vector>

namespace warpcheck::detail {

class CoverageTree {
 public:
  explicit CoverageTree(size_t n) : n_(n) {
    size_ = 1;
    while (size_ < n_) size_ <<= 1;
    min_.assign(2 * size_, 0);
    add_.assign(2 * size_, 0);
    for (size_t i = n_; i < size_; ++i) min_[size_ + i] = kPadding;  // never reported
    for (size_t v = size_ - 1; v >= 1; --v) min_[v] = std::min(min_[2 * v], min_[2 * v + 1]);
  }

  // Adds `delta` to the cells [l, r).
  void add(size_t l, size_t r, int32_t delta) { add(1, 0, size_, l, r, delta); }

  // Calls visit(cell) for each cell in [l, r) whose count is zero, in order.
  template <class Visit>
  void visit_uncovered(size_t l, size_t r, Visit&& visit) const {
    visit_zero(1, 0, size_, l, r, 0, visit);
  }

 private:
  static constexpr int32_t kPadding = INT32_MAX / 2;

  void add(size_t v, size_t lo, size_t hi, size_t l, size_t r, int32_t delta) {
    if (hi <= l || r <= lo) return;
    if (l <= lo && hi <= r) {
      min_[v] += delta;
      add_[v] += delta;
      return;
    }
    const size_t mid = (lo + hi) / 2;
    add(2 * v, lo, mid, l, r, delta);
    add(2 * v + 1, mid, hi, l, r, delta);
    min_[v] = std::min(min_[2 * v], min_[2 * v + 1]) + add_[v];
  }

  // `above`: what the ancestors add to this subtree's counts.
  template <class Visit>
  void visit_zero(size_t v, size_t lo, size_t hi, size_t l, size_t r, int32_t above, Visit& visit) const {
    if (hi <= l || r <= lo || min_[v] + above > 0) return;
    if (hi - lo == 1) {
      visit(lo);
      return;
    }
    const size_t mid = (lo + hi) / 2;
    visit_zero(2 * v, lo, mid, l, r, above + add_[v], visit);
    visit_zero(2 * v + 1, mid, hi, l, r, above + add_[v], visit);
  }

  size_t n_, size_;
  std::vector<int32_t> min_, add_;  // min_[v]: the minimum of the subtree, counting add_[v] but not its ancestors'
};

}  // namespace warpcheck::detail
