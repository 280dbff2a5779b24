// Team-cooperative sorting and merging of key batches in the team's
// scratch memory (a block's shared memory on the GPU): the building blocks
// of the generalized heap's MergeAndSort (paper, section 4).
//
// Every lane of the team calls each function with the same arguments; each
// ends with t.sync(), so its results are visible to every lane after it.
// Scratch words are touched through the team (order::weak: plain accesses
// on the GPU, scheduling points in the simulator), so the simulator can
// interleave lanes inside a merge and show a missing barrier.
#pragma once
#include <cstdint>

#include "structures/core/team.hpp"

namespace warpcheck::structures::heap_detail {

inline constexpr uint32_t kEmptyKey = 0xFFFFFFFFu;  // the paper's MAX_VALUE: an empty slot

template <class Team>
WC_HD WC_FORCE_INLINE uint32_t get(Team& t, const uint32_t* p) {
  return t.load(p, core::order::weak, core::scope::gpu);
}
template <class Team>
WC_HD WC_FORCE_INLINE void put(Team& t, uint32_t* p, uint32_t v) {
  t.store(p, v, core::order::weak, core::scope::gpu);
}

// dst[0..n) = src[0..n). dst and src must not overlap.
template <class Team>
WC_HD void copy_keys(Team& t, uint32_t* dst, const uint32_t* src, uint32_t n) {
  for (uint32_t i = t.lane(); i < n; i += t.size()) put(t, dst + i, get(t, src + i));
  t.sync();
}

template <class Team>
WC_HD void fill_keys(Team& t, uint32_t* dst, uint32_t n, uint32_t v) {
  for (uint32_t i = t.lane(); i < n; i += t.size()) put(t, dst + i, v);
  t.sync();
}

// Sorts s[0..room) ascending with a bitonic network; room is a power of two
// and s[n..room) is filled with kEmptyKey first, so the n keys come first.
template <class Team>
WC_HD void bitonic_sort(Team& t, uint32_t* s, uint32_t n, uint32_t room) {
  for (uint32_t i = n + t.lane(); i < room; i += t.size()) put(t, s + i, kEmptyKey);
  t.sync();
  for (uint32_t size = 2; size <= room; size <<= 1) {
    for (uint32_t stride = size >> 1; stride > 0; stride >>= 1) {
      // Each lane takes pairs (i, i ^ stride) with i the lower index.
      for (uint32_t p = t.lane(); p < room / 2; p += t.size()) {
        const uint32_t i = 2 * p - (p & (stride - 1));
        const uint32_t j = i + stride;
        const bool ascending = (i & size) == 0;
        const uint32_t a = get(t, s + i), b = get(t, s + j);
        if ((a > b) == ascending) {
          put(t, s + i, b);
          put(t, s + j, a);
        }
      }
      t.sync();
    }
  }
}

// How many of s[0..n) are < v (strict) or <= v, by binary search.
template <class Team>
WC_HD uint32_t rank_of(Team& t, const uint32_t* s, uint32_t n, uint32_t v, bool or_equal) {
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    const uint32_t mid = (lo + hi) / 2;
    const uint32_t m = get(t, s + mid);
    if (m < v || (or_equal && m == v)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// out[0..na+nb) = the merge of sorted a[0..na) and b[0..nb). Each element's
// place is its index plus its co-rank in the other batch (merge path's
// split, found per element by binary search; ties put a's first), so every
// lane places its elements independently. out must not overlap a or b.
template <class Team>
WC_HD void merge(Team& t, const uint32_t* a, uint32_t na, const uint32_t* b, uint32_t nb, uint32_t* out) {
  for (uint32_t i = t.lane(); i < na; i += t.size()) {
    const uint32_t v = get(t, a + i);
    put(t, out + i + rank_of(t, b, nb, v, false), v);
  }
  for (uint32_t j = t.lane(); j < nb; j += t.size()) {
    const uint32_t v = get(t, b + j);
    put(t, out + j + rank_of(t, a, na, v, true), v);
  }
  t.sync();
}

}  // namespace warpcheck::structures::heap_detail
