// The batch steps both heap variants share: MergeAndSort between nodes, the
// partial buffer and an operation's own batch, and the counters kept under
// the root's lock.
#pragma once
#include <cstdint>

#include "structures/core/workload_op.hpp"
#include "structures/heap/detail/block_merge.hpp"
#include "structures/heap/detail/node_lock.hpp"
#include "structures/heap/heap_layout.hpp"

namespace warpcheck::structures::heap_detail {

using scratch = generalized_heap::scratch;

// A word kept under the root's lock (last, partial_size): lane 0 reads it
// plainly (the lock's acquire orders it), every lane gets it.
template <class Team>
WC_HD uint32_t read_guarded(Team& t, const uint32_t* w) {
  return t.shfl(t.lane() == 0 ? t.load(w, core::order::weak, core::scope::gpu) : 0u, 0);
}
template <class Team>
WC_HD void write_guarded(Team& t, uint32_t* w, uint32_t v) {
  if (t.lane() == 0) t.store(w, v, core::order::weak, core::scope::gpu);
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

// TD lines 14-15 / BU lines 10-11, the last node locked: its keys refill
// the root, and it is emptied and released.
template <class Team>
WC_HD void move_last_into_root(Team& t, const generalized_heap& h, uint32_t tar) {
  copy_keys(t, h.node(1), h.node(tar), h.k);
  fill_keys(t, h.node(tar), h.k, kEmptyKey);
  ms_unlock(t, h, h.state(tar), node_state::inuse, node_state::avail);
}

// After the refill: whether the delete still holds the root for its
// descent. The planted bug early_root_release lets go of it here, before
// the descent below settles which keys the root keeps.
template <class Team>
WC_HD bool keeps_root_for_descent(Team& t, const generalized_heap& h) {
  if (h.mutant != heap_mutant::early_root_release) return true;
  ms_unlock(t, h, h.state(1), node_state::inuse, node_state::avail);
  return false;
}

// Both deletes' step below a node (TD lines 30-32, BU 23-25): the k
// largest keys of the two children go back to the child whose largest key
// was larger (its subtree stays a heap), the other takes the k smallest and
// is the one the descent goes on into.
struct child_split {
  uint32_t big, small;
  bool left_big;
};
template <class Team>
WC_HD child_split merge_children(Team& t, const generalized_heap& h, const scratch& sc, uint32_t l, uint32_t r) {
  const bool left_big = last_key(t, h, l) > last_key(t, h, r);
  const child_split s{left_big ? l : r, left_big ? r : l, left_big};
  merge_nodes(t, h, sc, s.small, s.big);
  return s;
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
// delete takes the whole partial buffer (line 4, `deleteItems =
// pBuffer[1:pBuffer.size]`). Returns how many keys (in sc.items). As
// printed the buffer keeps them, so the next delete returns them again;
// heap_fix::empty_taken_buffer empties it.
template <class Team>
WC_HD uint32_t take_partial_buffer(Team& t, const generalized_heap& h, const scratch& sc) {
  const uint32_t size = read_guarded(t, h.partial_size);
  copy_keys(t, sc.items, h.partial, size);
  if (h.fixed(heap_fix::empty_taken_buffer)) write_guarded(t, h.partial_size, 0u);
  return size;
}

// Line 16 (TD) / 12 (BU): (B[1], pBuffer) = MergeAndSort(B[1], pBuffer).
template <class Team>
WC_HD void trade_root_with_partial_buffer(Team& t, const generalized_heap& h, const scratch& sc) {
  if (h.mutant == heap_mutant::skip_partial_merge) return;  // the planted bug: the root may now hold keys above the buffer's
  const uint32_t size = read_guarded(t, h.partial_size);
  merge_and_sort(t, sc, h.node(1), h.k, h.partial, size, h.node(1), h.k, h.partial);
}

// Lines 1-11 of both inserts (Figs. 10 and 12): sort the batch, lock the
// root, `hint`, meet the partial buffer, claim the next node (the paper's
// `lastelem++`, read as ++lastelem: nodes are 1-based). Returns that node's
// number with the root held, or 0 when the insert is over (`out` says how).
template <class Team, class Hint>
WC_HD uint32_t begin_insert(Team& t, const generalized_heap& h, const scratch& sc, uint32_t n, Hint hint,
                            core::op_result& out) {
  out = {};
  bitonic_sort(t, sc.items, n, h.k);
  if (!ms_lock(t, h, h.state(1), node_state::avail, node_state::inuse)) {
    out = {core::op_status::gave_up};
    return 0;
  }
  hint(t);
  if (absorb_into_partial_buffer(t, h, sc, n)) {
    ms_unlock(t, h, h.state(1), node_state::inuse, node_state::avail);
    return 0;
  }
  const uint32_t count = read_guarded(t, h.last) + 1;
  if (count > h.capacity) {
    if (t.lane() == 0) t.fail("heap: full (capacity nodes in use)", h.last);
    out = {core::op_status::failed};
    return 0;
  }
  write_guarded(t, h.last, count);
  return count;
}

// Lines 1-8 of both deletes: lock the root, `hint`, take the partial buffer
// when no node is in use, else the root's keys (into sc.items), and give up
// the last node (lastelem--: Fig. 4(c) line 3; Figs. 10 and 12 print
// `tar = lastelem`, a reading). With one node left it was the root: Figs. 10
// and 12 go on to lock it (TD line 13, BU line 9), which this delete holds,
// and wait for themselves; heap_fix::one_node_delete stops there (Fig. 4(c)
// line 5, `if (tar == 1) return`). Returns the last node's number with the
// root held, or 0 when the delete is over (`out` is its result either way).
template <class Team, class Hint>
WC_HD uint32_t begin_delete(Team& t, const generalized_heap& h, const scratch& sc, Hint hint, core::op_result& out) {
  if (!ms_lock(t, h, h.state(1), node_state::avail, node_state::inuse)) {
    out = {core::op_status::gave_up};
    return 0;
  }
  hint(t);
  const uint32_t count = read_guarded(t, h.last);
  out = {core::op_status::done, ResultKind::Keys, int64_t(h.k)};
  uint32_t tar = 0;
  if (count == 0) {
    out.value = take_partial_buffer(t, h, sc);
  } else {
    copy_keys(t, sc.items, h.node(1), h.k);
    write_guarded(t, h.last, count - 1);
    tar = h.node_of(count);
    if (tar == 1 && h.fixed(heap_fix::one_node_delete)) {
      fill_keys(t, h.node(1), h.k, kEmptyKey);
      tar = 0;
    }
  }
  if (!tar) ms_unlock(t, h, h.state(1), node_state::inuse, node_state::avail);
  return tar;
}

// floor(log2 n), n >= 1.
WC_HD inline uint32_t log2_floor(uint32_t n) {
  uint32_t d = 0;
  while ((n >> (d + 1)) != 0) ++d;
  return d;
}

}  // namespace warpcheck::structures::heap_detail
