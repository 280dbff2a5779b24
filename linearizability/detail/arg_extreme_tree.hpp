// A segment tree over positions 0..n-1 holding one 64-bit value each, for
// the distinct-value stack checker: the position of the extreme value in a
// range (`Better` picks it: std::less for the minimum, std::greater for the
// maximum), point updates (a value retired is set to `retired`, which never
// wins), and a visit, in position order, of the positions in a range whose
// value is at least as good as a threshold.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace warpcheck::detail {

template <class Better>
class ArgExtremeTree {
 public:
  ArgExtremeTree(const std::vector<uint64_t>& values, uint64_t retired) : n_(values.size()), retired_(retired) {
    size_ = 1;
    while (size_ < n_) size_ <<= 1;
    value_.assign(2 * size_, retired_);
    at_.assign(2 * size_, UINT32_MAX);
    for (size_t i = 0; i < n_; ++i) {
      value_[size_ + i] = values[i];
      at_[size_ + i] = uint32_t(i);
    }
    for (size_t v = size_ - 1; v >= 1; --v) pull(v);
  }

  void retire(uint32_t i) {
    size_t v = size_ + i;
    value_[v] = retired_;
    for (v >>= 1; v >= 1; v >>= 1) pull(v);
  }

  // The position of the best value in [l, r), ties to the lowest position;
  // UINT32_MAX when every value there is retired.
  uint32_t best(uint32_t l, uint32_t r) const {
    uint32_t found = UINT32_MAX;
    uint64_t found_value = retired_;
    auto take = [&](size_t v) {
      if (at_[v] == UINT32_MAX || value_[v] == retired_) return;
      if (found == UINT32_MAX || better_(value_[v], found_value) ||
          (!better_(found_value, value_[v]) && at_[v] < found)) {
        found = at_[v];
        found_value = value_[v];
      }
    };
    for (size_t lo = l + size_, hi = r + size_; lo < hi; lo >>= 1, hi >>= 1) {
      if (lo & 1) take(lo++);
      if (hi & 1) take(--hi);
    }
    return found;
  }

  // Calls visit(position) for each position in [l, r) whose value is at
  // least as good as `threshold` (not retired), in position order, until
  // visit returns true; returns whether it did.
  template <class Visit>
  bool visit_reaching(uint32_t l, uint32_t r, uint64_t threshold, Visit&& visit) const {
    return descend(1, 0, size_, l, r, threshold, visit);
  }

 private:
  void pull(size_t v) {
    const size_t a = 2 * v, b = 2 * v + 1;
    const bool take_b = at_[a] == UINT32_MAX || value_[a] == retired_ ||
                        (at_[b] != UINT32_MAX && value_[b] != retired_ && better_(value_[b], value_[a]));
    value_[v] = take_b ? value_[b] : value_[a];
    at_[v] = take_b ? at_[b] : at_[a];
  }

  bool reaches(size_t v, uint64_t threshold) const {
    return at_[v] != UINT32_MAX && value_[v] != retired_ && !better_(threshold, value_[v]);
  }

  template <class Visit>
  bool descend(size_t v, size_t lo, size_t hi, uint32_t l, uint32_t r, uint64_t threshold, Visit& visit) const {
    if (hi <= l || r <= lo || !reaches(v, threshold)) return false;
    if (hi - lo == 1) return visit(uint32_t(lo));
    const size_t mid = (lo + hi) / 2;
    return descend(2 * v, lo, mid, l, r, threshold, visit) || descend(2 * v + 1, mid, hi, l, r, threshold, visit);
  }

  size_t n_, size_;
  uint64_t retired_;
  Better better_{};
  std::vector<uint64_t> value_;
  std::vector<uint32_t> at_;
};

}  // namespace warpcheck::detail
