// What a sequential model is, as concepts: the small core the checker
// cannot do without (Porcupine's Init, Step and Equal, plus the name and the
// operation table a history is read with), and optional capabilities, one
// concept each, that make the search faster or the reports richer. A model
// lacking a capability gets its default from models/model_traits.hpp; every
// default is sound (it costs speed or detail, never a wrong verdict).
//
// A Porcupine-sized model, a register of integers starting at 0:
//   struct IntRegister {
//     static constexpr std::string_view name = "int-register";
//     static constexpr OpSpec ops[] = {{OpKind::Write, kArgValue, Returns::Nothing},
//                                      {OpKind::Read, 0, Returns::ValueOrAbsent}};
//     using State = int64_t;
//     static State initial() { return 0; }
//     static bool step(State& s, const OpData& op, const int64_t*, uint32_t) {
//       if (op.kind == OpKind::Write) return s = op.value, true;
//       return op.pending || (op.result_kind == ResultKind::Value && op.result == s);
//     }
//   };
// checked with check_against_model<IntRegister>(history) (linearizability/check_model.hpp).
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "models/op.hpp"

namespace warpcheck {

// The core. The search keeps copies of states (to backtrack to, in its
// memo) and compares them, so State is copyable and has ==. `keys` is the
// history's key pool (batches); `choice` picks among a nondeterministic
// step's effects (NondeterministicModel) and is 0 otherwise.
template <class M>
concept SequentialModel = std::copyable<typename M::State> && std::equality_comparable<typename M::State> &&
                          requires(typename M::State& s, const OpData& op, const int64_t* keys, uint32_t choice) {
                            { M::name } -> std::convertible_to<std::string_view>;  // the name histories use
                            std::span<const OpSpec>(M::ops);                       // the operations and their results
                            { M::initial() } -> std::same_as<typename M::State>;
                            { M::step(s, op, keys, choice) } -> std::same_as<bool>;  // false: the result is impossible here
                          };

// --- Optional capabilities (defaults: models/model_traits.hpp) ---

// partition_by_key: a history is linearizable iff each key's sub-history is
// (P-compositionality), so the checker splits it. Default: checked whole.
template <class M>
concept PartitionableModel = requires { typename std::bool_constant<M::partition_by_key>; };

// choices: the number of effects a nondeterministic step may have (step's
// `choice` ranges over them). Default: 1.
template <class M>
concept NondeterministicModel = requires(const typename M::State& s, const OpData& op, const int64_t* keys) {
  { M::choices(s, op, keys) } -> std::convertible_to<uint32_t>;
};

// hash: a state hash consistent with ==, for the memo. Default: the state's
// own s.hash(), else std::hash<State>, else 0 (see model_traits.hpp).
template <class M>
concept HashableModel = requires(const typename M::State& s) {
  { M::hash(s) } -> std::convertible_to<uint64_t>;
};

// describe: a state as text, for reports. Default: a placeholder saying the
// model has no describer.
template <class M>
concept DescribableModel = requires(const typename M::State& s) {
  { M::describe(s) } -> std::convertible_to<std::string>;
};

// leaves_state_unchanged: operations that cannot change any state (observers,
// updates recorded as failed). The shrinker drops them, the search never
// branches on them. Default: none.
template <class M>
concept ShrinkableModel = requires(const OpData& op) {
  { M::leaves_state_unchanged(op) } -> std::convertible_to<bool>;
};

// admits: a cheap, read-only test that holds whenever step() succeeds, so
// the search skips copying the state for steps bound to fail. Default: true.
template <class M>
concept PretestedModel = requires(const typename M::State& s, const OpData& op, const int64_t* keys) {
  { M::admits(s, op, keys) } -> std::convertible_to<bool>;
};

// invertible + undo: once an invertible operation's step succeeds its effect
// is fixed (the same on every state it succeeds on), so the state after a
// set of them does not depend on their order; undo() reverses a successful
// step, and a failed step leaves the state as it was. undo() is also called
// on the operations leaves_state_unchanged() names, and must then change
// nothing. The search stores no state copies for them. Default: none.
template <class M>
concept InvertibleModel = requires(typename M::State& s, const OpData& op, const int64_t* keys) {
  { M::invertible(op) } -> std::convertible_to<bool>;
  M::undo(s, op, keys);
};

// lazy + helps: a lazy operation may always be linearized later rather than
// sooner, except right before an operation it helps (linearizability/
// detail/search.hpp has the argument). Default: none.
template <class M>
concept LazyModel = requires(const OpData& op, const int64_t* keys) {
  { M::lazy(op) } -> std::convertible_to<bool>;
  { M::helps(op, op, keys) } -> std::convertible_to<bool>;
};

// Anchors and the keys operations supply (the search's blocks, where every
// supplied key is supplied once; linearizability/detail/search.hpp).
// admits_after: whether anchor `op` would succeed once `block` (its
// suppliers, not applied) is in. Default: no anchors.
template <class M>
concept AnchoredModel = requires(const typename M::State& s, const OpData& op, std::span<const OpData* const> block,
                                 const int64_t* keys) {
  { M::is_anchor(op) } -> std::convertible_to<bool>;
  { M::anchor_keys(op, keys) } -> std::convertible_to<std::span<const int64_t>>;
  { M::supplied_keys(op, keys) } -> std::convertible_to<std::span<const int64_t>>;
  { M::admits_after(s, op, block, keys) } -> std::convertible_to<bool>;
};

// opaque_values: written values matter only through equality with observed
// ones (completed results, CAS expected values), so the search may rename
// the values nobody observes to one placeholder. Default: false (a model
// that adds values, say, needs every one).
template <class M>
concept OpaqueValuesModel = requires { typename std::bool_constant<M::opaque_values>; };

// For the history generator (linearizability/synthetic/): current_value is
// what a read or removal returns now; stores_values asks for every added
// value distinct. Defaults: nothing known; values drawn like keys.
template <class M>
concept CurrentValueModel = requires(const typename M::State& s, const OpData& op) {
  { M::current_value(s, op) } -> std::convertible_to<std::optional<int64_t>>;
};
template <class M>
concept ValueStoringModel = requires { typename std::bool_constant<M::stores_values>; };

// heap_bytes: the bytes a state allocates, for the search's memory budget.
// Default: 0 (right for a state that owns none).
template <class State>
concept AllocationSizedState = requires(const State& s) {
  { s.heap_bytes() } -> std::convertible_to<size_t>;
};

}  // namespace warpcheck
