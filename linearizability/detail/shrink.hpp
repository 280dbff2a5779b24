// Shrinking a refuted sub-history to a small one that is still refuted.
// Every candidate is re-checked by the search, so whatever is returned is a
// verified violation; "minimal" is claimed only when removing each single
// remaining operation was checked and made it linearizable.
#pragma once

#include <vector>

#include "linearizability/detail/search.hpp"

namespace warpcheck::detail {

template <class Model>
class Shrinker {
 public:
  Shrinker(const History& h, Search<Model>& search, Budget& budget) : h_(h), search_(search), budget_(budget) {}

  // `ops` must be refuted already; returns a refuted subset in call order.
  std::vector<uint32_t> shrink(std::vector<uint32_t> ops, bool& minimal) {
    std::stable_sort(ops.begin(), ops.end(), [&](uint32_t a, uint32_t b) { return h_.ops[a].call < h_.ops[b].call; });
    ops = shortest_refuted_prefix(std::move(ops));
    // ddmin-style: drop chunks while the rest stays refuted, halving the
    // chunk size down to single operations.
    for (size_t chunk = ops.size() / 2; chunk >= 1 && !gave_up_; chunk /= 2) {
      for (size_t start = 0; start < ops.size() && ops.size() > 1 && !gave_up_;) {
        if (try_without(ops, start, chunk)) continue;
        start += chunk;
      }
    }
    // Single removals until a full pass removes nothing: 1-minimal.
    for (bool changed = true; changed && !gave_up_;) {
      changed = false;
      for (size_t i = 0; i < ops.size() && ops.size() > 1 && !gave_up_;)
        if (try_without(ops, i, 1)) changed = true; else ++i;
    }
    minimal = !gave_up_;
    return ops;
  }

 private:
  // Binary search for a short refuted prefix (in invocation order). Refuted
  // prefixes need not be monotone, so only verified ones are ever kept.
  std::vector<uint32_t> shortest_refuted_prefix(std::vector<uint32_t> ops) {
    size_t lo = 1, hi = ops.size();
    while (lo < hi && !gave_up_) {
      size_t mid = lo + (hi - lo) / 2;
      if (refuted(std::span<const uint32_t>(ops.data(), mid))) hi = mid; else lo = mid + 1;
    }
    ops.resize(hi);
    return ops;
  }

  bool try_without(std::vector<uint32_t>& ops, size_t start, size_t count) {
    count = std::min(count, ops.size() - start);
    if (count == 0 || count == ops.size()) return false;
    candidate_.assign(ops.begin(), ops.begin() + long(start));
    candidate_.insert(candidate_.end(), ops.begin() + long(start + count), ops.end());
    if (!refuted(candidate_)) return false;
    ops.swap(candidate_);
    return true;
  }

  bool refuted(std::span<const uint32_t> ops) {
    SearchOutcome o = search_.run(h_, ops, budget_).outcome;
    if (o != SearchOutcome::Violation && o != SearchOutcome::Linearizable) gave_up_ = true;
    return o == SearchOutcome::Violation;
  }

  const History& h_;
  Search<Model>& search_;
  Budget& budget_;
  std::vector<uint32_t> candidate_;
  bool gave_up_ = false;
};

}  // namespace warpcheck::detail
