// What the queue and the stack share: a sequence of values, one operation
// that adds a value (its `key`) and one that removes the next value out
// (the front of a queue, the top of a stack) and returns it, or returns
// null (ResultKind::Absent) on an empty container.
//
// A removal recorded as returning null changes nothing: an observer. A
// pending removal took the next value out, or did not happen.
//
// States depend on the order of the additions, so no step is invertible in
// the search's sense (a set of steps does not fix the state): the search
// keeps every state it needs.
//
// Anchors (linearizability/detail/search.hpp): a completed removal that
// returned a value. Where every added value is distinct, the search forces
// it when its value is next out: any valid extension can take it first
// (until it runs its value stays put, so nothing is removed before it and
// no removal in between returns null; additions in between go behind or
// above it either way). It is never tried before the addition of its
// value, which the search tries on its own.
#pragma once

#include <optional>
#include <span>
#include <string>

#include "models/detail/key_sequence.hpp"
#include "models/detail/model_base.hpp"
#include "models/result_match.hpp"

namespace warpcheck::detail {

template <OpKind kAdd, OpKind kRemove, bool kFifo>
struct SequenceModelBase : ModelBase<KeySequence> {
  static constexpr bool partition_by_key = false;
  // The generator gives every added value its own number, so that its
  // histories fall to the distinct-value checkers.
  static constexpr bool stores_values = true;

  static std::string describe(const State& s) { return describe_keys(s, s.size()); }

  static int64_t next_out(const State& s) { return kFifo ? s.front() : s.back(); }
  static void take_next(State& s) {
    if constexpr (kFifo) s.pop_front(); else s.pop_back();
  }
  // What a removal returns now (for generating histories).
  static std::optional<int64_t> current_value(const State& s, const OpData&) {
    return s.empty() ? std::nullopt : std::optional<int64_t>(next_out(s));
  }

  static bool leaves_state_unchanged(const OpData& op) {
    return op.kind == kRemove && !op.pending && op.result_kind == ResultKind::Absent;
  }

  static bool is_anchor(const OpData& op) { return op.kind == kRemove && !op.pending && op.result_kind == ResultKind::Value; }
  static std::span<const int64_t> anchor_keys(const OpData& op, const int64_t*) { return {&op.result, 1}; }
  static std::span<const int64_t> supplied_keys(const OpData& op, const int64_t*) {
    return op.kind == kAdd ? std::span<const int64_t>(&op.key, 1) : std::span<const int64_t>();
  }
  // Whether anchor `op` would return its value once `block` (the addition
  // of that value, not applied) is in. Only with an empty block: the search
  // steps a block in place, which order-dependent additions do not allow,
  // and it tries the addition on its own anyway.
  static bool admits_after(const State& s, const OpData& op, std::span<const OpData* const> block, const int64_t* pool) {
    return block.empty() && admits(s, op, pool);
  }

  // A completed removal returned what is next out, or null on empty.
  static bool admits(const State& s, const OpData& op, const int64_t*) {
    if (op.kind != kRemove || op.pending) return true;
    if (op.result_kind == ResultKind::Absent) return s.empty();
    return op.result_kind == ResultKind::Value && !s.empty() && next_out(s) == op.result;
  }

  static bool step(State& s, const OpData& op, const int64_t* pool, uint32_t) {
    if (op.kind == kAdd) {
      s.push_back(op.key);
      return true;
    }
    if (op.kind != kRemove || !admits(s, op, pool)) return false;
    if (!s.empty()) take_next(s);
    return true;
  }
};

}  // namespace warpcheck::detail
