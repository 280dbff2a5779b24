// Every optional capability of a model (models/model_concept.hpp), with its
// default where the model lacks it: what the checker, the shrinker, the
// report and the generator call, so that none of them assumes a member
// exists. Each default is the choice that keeps verdicts sound.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>

#include "models/model_concept.hpp"

namespace warpcheck {

// The bytes a state allocates (AllocationSizedState), else 0.
template <class State>
size_t state_heap_bytes(const State& s) {
  if constexpr (AllocationSizedState<State>) return s.heap_bytes();
  else return 0;
}

template <SequentialModel M>
struct ModelTraits {
  using State = typename M::State;

  // A member a capability names but with another signature would be
  // ignored without a word (its default used): refused here instead.
  static_assert(PartitionableModel<M> || !requires { &M::partition_by_key; }, "partition_by_key: see PartitionableModel");
  static_assert(NondeterministicModel<M> || !requires { &M::choices; }, "choices: see NondeterministicModel");
  static_assert(HashableModel<M> || !requires { &M::hash; }, "hash: see HashableModel");
  static_assert(DescribableModel<M> || !requires { &M::describe; }, "describe: see DescribableModel");
  static_assert(ShrinkableModel<M> || !requires { &M::leaves_state_unchanged; }, "leaves_state_unchanged: see ShrinkableModel");
  static_assert(PretestedModel<M> || !requires { &M::admits; }, "admits: see PretestedModel");
  static_assert(InvertibleModel<M> || !(requires { &M::invertible; } || requires { &M::undo; }),
                "invertible and undo go together: see InvertibleModel");
  static_assert(LazyModel<M> || !(requires { &M::lazy; } || requires { &M::helps; }), "lazy and helps go together: see LazyModel");
  static_assert(AnchoredModel<M> || !(requires { &M::is_anchor; } || requires { &M::anchor_keys; } ||
                                      requires { &M::supplied_keys; } || requires { &M::admits_after; }),
                "is_anchor, anchor_keys, supplied_keys and admits_after go together: see AnchoredModel");
  static_assert(OpaqueValuesModel<M> || !requires { &M::opaque_values; }, "opaque_values: see OpaqueValuesModel");
  static_assert(CurrentValueModel<M> || !requires { &M::current_value; }, "current_value: see CurrentValueModel");
  static_assert(ValueStoringModel<M> || !requires { &M::stores_values; }, "stores_values: see ValueStoringModel");

  static constexpr bool partition_by_key = [] {
    if constexpr (PartitionableModel<M>) return bool(M::partition_by_key);
    else return false;
  }();
  static constexpr bool opaque_values = [] {
    if constexpr (OpaqueValuesModel<M>) return bool(M::opaque_values);
    else return false;
  }();
  static constexpr bool stores_values = [] {
    if constexpr (ValueStoringModel<M>) return bool(M::stores_values);
    else return false;
  }();

  static uint32_t choices(const State& s, const OpData& op, const int64_t* keys) {
    if constexpr (NondeterministicModel<M>) return M::choices(s, op, keys);
    else return 1;
  }

  // Without a hash, every state hashes to 0: the memo still tells
  // configurations apart by their linearized set's hash, then by ==. Sound,
  // slower only where one set reaches many states.
  static uint64_t hash(const State& s) {
    if constexpr (HashableModel<M>) return M::hash(s);
    else if constexpr (requires { { s.hash() } -> std::convertible_to<uint64_t>; }) return s.hash();
    else if constexpr (requires { std::hash<State>{}(s); }) return std::hash<State>{}(s);
    else return 0;
  }

  static std::string describe(const State& s) {
    if constexpr (DescribableModel<M>) return M::describe(s);
    else return "(the model has no describe)";
  }

  static bool leaves_state_unchanged(const OpData& op) {
    if constexpr (ShrinkableModel<M>) return M::leaves_state_unchanged(op);
    else return false;
  }

  static bool admits(const State& s, const OpData& op, const int64_t* keys) {
    if constexpr (PretestedModel<M>) return M::admits(s, op, keys);
    else return true;
  }

  static bool invertible(const OpData& op) {
    if constexpr (InvertibleModel<M>) return M::invertible(op);
    else return false;
  }
  static void undo(State& s, const OpData& op, const int64_t* keys) {
    if constexpr (InvertibleModel<M>) M::undo(s, op, keys);
  }

  static bool lazy(const OpData& op) {
    if constexpr (LazyModel<M>) return M::lazy(op);
    else return false;
  }
  static bool helps(const OpData& op, const OpData& other, const int64_t* keys) {
    if constexpr (LazyModel<M>) return M::helps(op, other, keys);
    else return false;
  }

  static bool is_anchor(const OpData& op) {
    if constexpr (AnchoredModel<M>) return M::is_anchor(op);
    else return false;
  }
  static std::span<const int64_t> anchor_keys(const OpData& op, const int64_t* keys) {
    if constexpr (AnchoredModel<M>) return M::anchor_keys(op, keys);
    else return {};
  }
  static std::span<const int64_t> supplied_keys(const OpData& op, const int64_t* keys) {
    if constexpr (AnchoredModel<M>) return M::supplied_keys(op, keys);
    else return {};
  }
  static bool admits_after(const State& s, const OpData& op, std::span<const OpData* const> block, const int64_t* keys) {
    if constexpr (AnchoredModel<M>) return M::admits_after(s, op, block, keys);
    else return false;
  }

  static std::optional<int64_t> current_value(const State& s, const OpData& op) {
    if constexpr (CurrentValueModel<M>) return M::current_value(s, op);
    else return std::nullopt;
  }
};

}  // namespace warpcheck
