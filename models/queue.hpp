// FIFO queue of int64 values. enqueue(v) returns nothing; dequeue returns
// the front value, or null (ResultKind::Absent) when the queue is empty.
// Batched forms, in the key pool like the priority queue's batches:
// enqueue-batch adds its keys in order, at once; dequeue-batch(n) removes
// and returns the min(n, size) front values, front first (fewer than n
// only when it emptied the queue).
#pragma once

#include "models/detail/sequence_model_base.hpp"

namespace warpcheck {

struct QueueModel : detail::SequenceModelBase<OpKind::Enqueue, OpKind::Dequeue, /*kFifo=*/true> {
  using Base = detail::SequenceModelBase<OpKind::Enqueue, OpKind::Dequeue, true>;
  static constexpr std::string_view name = "queue";
  static constexpr OpSpec ops[] = {
      {OpKind::Enqueue, kArgKey, Returns::Nothing},
      {OpKind::Dequeue, 0, Returns::ValueOrAbsent},
      {OpKind::EnqueueBatch, kArgKeys, Returns::Nothing},
      {OpKind::DequeueBatch, kArgCount, Returns::Keys},
  };

  static bool leaves_state_unchanged(const OpData& op) {
    if (op.kind == OpKind::EnqueueBatch) return op.keys_count == 0;
    if (op.kind == OpKind::DequeueBatch) return op.value == 0 || (!op.pending && op.out_count == 0);
    return Base::leaves_state_unchanged(op);
  }

  // Batched dequeues that returned keys are anchors too: forced when their
  // keys are the front now (the same argument, for each key).
  static bool is_anchor(const OpData& op) {
    return Base::is_anchor(op) || (op.kind == OpKind::DequeueBatch && !op.pending && op.out_count > 0);
  }
  static std::span<const int64_t> anchor_keys(const OpData& op, const int64_t* pool) {
    if (op.kind == OpKind::DequeueBatch) return {pool + op.out_begin, op.out_count};
    return Base::anchor_keys(op, pool);
  }
  static std::span<const int64_t> supplied_keys(const OpData& op, const int64_t* pool) {
    if (op.kind == OpKind::EnqueueBatch) return {pool + op.keys_begin, op.keys_count};
    return Base::supplied_keys(op, pool);
  }
  static bool admits_after(const State& s, const OpData& op, std::span<const OpData* const> block, const int64_t* pool) {
    return block.empty() && admits(s, op, pool);
  }

  // A completed batched dequeue returned exactly the min(n, size) front values.
  static bool admits(const State& s, const OpData& op, const int64_t* pool) {
    if (op.kind != OpKind::DequeueBatch) return Base::admits(s, op, pool);
    if (op.pending) return true;
    if (op.out_count != take(s, op)) return false;
    uint32_t i = 0;
    for (auto it = s.begin(); i < op.out_count; ++i, ++it) {
      detail::poll_every_keys(i);
      if (pool[op.out_begin + i] != *it) return false;
    }
    return true;
  }

  static bool step(State& s, const OpData& op, const int64_t* pool, uint32_t choice) {
    if (op.kind == OpKind::EnqueueBatch) {
      for (uint32_t i = 0; i < op.keys_count; ++i) {
        detail::poll_every_keys(i);
        s.push_back(pool[op.keys_begin + i]);
      }
      return true;
    }
    if (op.kind != OpKind::DequeueBatch) return Base::step(s, op, pool, choice);
    if (!admits(s, op, pool)) return false;
    for (uint32_t i = 0, n = take(s, op); i < n; ++i) {
      detail::poll_every_keys(i);
      s.pop_front();
    }
    return true;
  }

 private:
  static uint32_t take(const State& s, const OpData& op) {
    return op.value < int64_t(s.size()) ? uint32_t(op.value) : s.size();
  }
};

}  // namespace warpcheck
