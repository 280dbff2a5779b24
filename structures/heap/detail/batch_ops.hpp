// The batch steps both heap variants share: MergeAndSort between nodes, the
// partial buffer and an operation's own batch, and the counters kept under
// the root's lock.
#pragma once
#include <cstdint>

#include "structures/heap/detail/block_merge.hpp"
#include "structures/heap/heap_layout.hpp"

namespace warpcheck::structures::heap_detail {

using scratch = generalized_heap::scratch;

// A word kept under the root's lock (last, partial_size): lane 0 reads it
// plainly (the lock's acquire orders it), every lane gets it.
template <class Team>
WC_HD uint32_t read_guarded(Team& t, const uint32_t* w) {
  return t.shfl(t.lane() == 0 ? t.load(w, core::order::weak) : 0u, 0);
}
template <class Team>
WC_HD void write_guarded(Team& t, uint32_t* w, uint32_t v) {
  if (t.lane() == 0) t.store(w, v, core::order::weak);
}

// MergeAndSort of x[0..nx) and y[0..ny), both sorted: the n_lo smallest go
// to lo[0..n_lo), the rest to hi. Inputs are staged in scratch first, so
// the outputs may be the inputs.
template <class Team>
WC_HD void merge_and_sort(Team& t, const scratch& sc, const uint32_t* x, uint32_t nx, const uint32_t* y, uint32_t ny,
                          uint32_t* lo, uint32_t n_lo, uint32_t* hi) {
  copy_keys(t, sc.a, x, nx);
  copy_keys(t, sc.b, y, ny);
  merge(t, sc.a, nx, sc.b, ny, sc.merged);
  copy_keys(t, lo, sc.merged, n_lo);
  if (hi) copy_keys(t, hi, sc.merged + n_lo, nx + ny - n_lo);
}

// (B[x], B[y]) = MergeAndSort(B[x], B[y]): x keeps the k smallest.
template <class Team>
WC_HD void merge_nodes(Team& t, const generalized_heap& h, const scratch& sc, uint32_t x, uint32_t y) {
  merge_and_sort(t, sc, h.node(x), h.k, h.node(y), h.k, h.node(x), h.k, h.node(y));
}

// A node's first and last key, for every lane.
template <class Team>
WC_HD uint32_t first_key(Team& t, const generalized_heap& h, uint32_t i) {
  return t.shfl(t.lane() == 0 ? get(t, h.node(i)) : 0u, 0);
}
template <class Team>
WC_HD uint32_t last_key(Team& t, const generalized_heap& h, uint32_t i) {
  return t.shfl(t.lane() == 0 ? get(t, h.node(i) + h.k - 1) : 0u, 0);
}

// Lines 3-10 of both inserts, with the root held: the insert's n sorted
// keys (sc.items) meet the partial buffer. When they make a full batch,
// sc.items keeps the k smallest and the buffer the rest: false, the insert
// goes on. Otherwise every key joins the buffer, which then trades with the
// root so the root keeps the k smallest (property 3): true, done.
template <class Team>
WC_HD bool absorb_into_partial_buffer(Team& t, const generalized_heap& h, const scratch& sc, uint32_t n) {
  const uint32_t size = read_guarded(t, h.partial_size);
  if (size + n >= h.k) {
    merge_and_sort(t, sc, sc.items, n, h.partial, size, sc.items, h.k, h.partial);
    write_guarded(t, h.partial_size, size + n - h.k);
    return false;
  }
  merge_and_sort(t, sc, sc.items, n, h.partial, size, h.partial, size + n, nullptr);
  write_guarded(t, h.partial_size, size + n);
  if (read_guarded(t, h.last) != 0) merge_and_sort(t, sc, h.node(1), h.k, h.partial, size + n, h.node(1), h.k, h.partial);
  return true;
}

// Lines 2-6 of both deletes, with the root held and no node in use: the
// delete takes the whole partial buffer. Returns how many keys (in
// sc.items). Fix: the paper returns pBuffer[1:size] without emptying it, so
// the next delete would return the same keys again; the buffer is emptied.
template <class Team>
WC_HD uint32_t take_partial_buffer(Team& t, const generalized_heap& h, const scratch& sc) {
  const uint32_t size = read_guarded(t, h.partial_size);
  copy_keys(t, sc.items, h.partial, size);
  write_guarded(t, h.partial_size, 0u);
  return size;
}

// Line 16 (TD) / 12 (BU): (B[1], pBuffer) = MergeAndSort(B[1], pBuffer).
template <class Team>
WC_HD void trade_root_with_partial_buffer(Team& t, const generalized_heap& h, const scratch& sc) {
  if (h.mutant == heap_mutant::skip_partial_merge) return;  // the planted bug: the root may now hold keys above the buffer's
  const uint32_t size = read_guarded(t, h.partial_size);
  merge_and_sort(t, sc, h.node(1), h.k, h.partial, size, h.node(1), h.k, h.partial);
}

// floor(log2 n), n >= 1.
WC_HD inline uint32_t log2_floor(uint32_t n) {
  uint32_t d = 0;
  while ((n >> (d + 1)) != 0) ++d;
  return d;
}

}  // namespace warpcheck::structures::heap_detail
