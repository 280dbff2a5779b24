// Batched min-priority queue over int64 keys, duplicates allowed. push adds
// a batch of keys and returns nothing; pop(n) removes and returns the
// min(n, size) smallest keys in ascending order. The state is a B-tree
// multiset: a batch of k keys costs O(k log n), polling the checker's
// budget every few thousand keys.
#pragma once

#include <algorithm>
#include <span>
#include <string>

#include "models/base/long_step.hpp"
#include "models/detail/btree_multiset.hpp"
#include "models/detail/model_base.hpp"
#include "models/result_match.hpp"

namespace warpcheck {

struct PriorityQueueModel : detail::ModelBase<detail::BTreeMultiset> {
  static constexpr std::string_view name = "pq";
  static constexpr bool partition_by_key = false;
  static constexpr OpSpec ops[] = {
      {OpKind::Push, kArgKeys, Returns::Nothing},
      {OpKind::Pop, kArgCount, Returns::Keys},
  };

  static std::string describe(const State& s) { return detail::describe_keys(s, s.size()); }

  // True when the operation cannot change any state (an observer, or an
  // update whose recorded result says it failed): the shrinker may drop it
  // without weakening the evidence.
  static bool leaves_state_unchanged(const OpData& op) {
    if (op.kind == OpKind::Push) return op.keys_count == 0;
    return op.value == 0 || (!op.pending && op.out_count == 0);
  }

  // Pushes are lazy: moving a push later never invalidates a completed pop
  // that does not return one of its keys (such a pop returned only smaller
  // keys, or the whole queue, which would have held the key). A pending pop
  // takes whatever is smallest, so it counts as helped by every push.
  static bool lazy(const OpData& op) { return op.kind == OpKind::Push; }
  static bool helps(const OpData& push, const OpData& other, const int64_t* pool) {
    if (other.kind != OpKind::Pop) return false;
    if (other.pending) return true;
    for (uint32_t i = 0; i < push.keys_count; ++i)
      for (uint32_t j = 0; j < other.out_count; ++j)
        if (pool[push.keys_begin + i] == pool[other.out_begin + j]) return true;
    return false;
  }

  // Pushes add their keys; completed pops remove exactly the keys they
  // returned. A pending pop removes whatever is smallest: not invertible.
  static bool invertible(const OpData& op) { return op.kind == OpKind::Push || !op.pending; }
  static void undo(State& s, const OpData& op, const int64_t* pool) {
    if (op.kind == OpKind::Push) {
      for (uint32_t i = 0; i < op.keys_count; ++i) {
        poll_every_batch(i);
        s.erase_one(pool[op.keys_begin + i]);
      }
    } else {
      for (uint32_t i = 0; i < op.out_count; ++i) {
        poll_every_batch(i);
        s.insert(pool[op.out_begin + i]);
      }
    }
  }

  // Blocks (linearizability/detail/search.hpp): where every pushed key is
  // distinct, a completed pop that returned keys is an anchor, and the
  // pushes holding its keys are its block.
  static bool is_anchor(const OpData& op) { return op.kind == OpKind::Pop && !op.pending && op.out_count > 0; }
  static std::span<const int64_t> anchor_keys(const OpData& op, const int64_t* pool) {
    return {pool + op.out_begin, op.out_count};
  }
  static std::span<const int64_t> supplied_keys(const OpData& op, const int64_t* pool) {
    return op.kind == OpKind::Push ? std::span<const int64_t>(pool + op.keys_begin, op.keys_count) : std::span<const int64_t>();
  }
  // Whether anchor `pop` would return exactly its keys once `block`'s
  // pushes (not applied) are in, without applying them: its keys must be
  // ascending, every key of the queue and of the block up to its largest
  // must be one of them, and there must be as many such keys as it
  // returned (keys are distinct, so then they are its keys); a partial pop
  // also needs nothing else in the queue.
  static bool admits_after(const State& s, const OpData& pop, std::span<const OpData* const> block, const int64_t* pool) {
    const int64_t* r = pool + pop.out_begin;
    const uint32_t m = pop.out_count;
    for (uint32_t i = 1; i < m; ++i)
      if (r[i - 1] >= r[i]) return false;
    const int64_t largest = r[m - 1];
    uint64_t below = 0, total = s.size();
    uint32_t j = 0;
    for (auto it = s.begin(); it != s.end() && *it <= largest; ++it) {
      poll_every_batch(uint32_t(below));
      while (j < m && r[j] < *it) ++j;
      if (j == m || r[j] != *it || ++below > m) return false;
    }
    for (const OpData* push : block) {
      total += push->keys_count;
      for (uint32_t i = 0; i < push->keys_count; ++i) {
        const int64_t k = pool[push->keys_begin + i];
        if (k <= largest && (!std::binary_search(r, r + m, k) || ++below > m)) return false;
      }
    }
    return below == m && (uint64_t(pop.value) == m || total == m);
  }

  // A completed pop returned exactly the min(n, size) smallest keys.
  static bool admits(const State& s, const OpData& op, const int64_t* pool) {
    if (op.kind != OpKind::Pop || op.pending) return true;
    const uint32_t take = op.value < static_cast<int64_t>(s.size()) ? static_cast<uint32_t>(op.value) : s.size();
    if (op.out_count != take) return false;
    uint32_t i = 0;
    for (auto it = s.begin(); i < take; ++i, ++it) {
      poll_every_batch(i);
      if (pool[op.out_begin + i] != *it) return false;
    }
    return true;
  }

  static bool step(State& s, const OpData& op, const int64_t* pool, uint32_t) {
    if (op.kind == OpKind::Push) {
      for (uint32_t i = 0; i < op.keys_count; ++i) {
        poll_every_batch(i);
        s.insert(pool[op.keys_begin + i]);
      }
      return true;
    }
    if (op.kind != OpKind::Pop || !admits(s, op, pool)) return false;
    s.erase_front(op.value < static_cast<int64_t>(s.size()) ? static_cast<uint32_t>(op.value) : s.size());
    return true;
  }

 private:
  static void poll_every_batch(uint32_t i) { detail::poll_every_keys(i); }
};

}  // namespace warpcheck
