// The contract of a sequential model (what the checker, the shrinker, the
// witness replayer and the HTML report call), stated as a concept: a model
// that lacks a piece fails to compile with that piece named.
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>

#include "models/op.hpp"

namespace warpcheck {

template <class M>
concept SequentialModel = requires(typename M::State& s, const typename M::State& cs, const OpData& op, const int64_t* keys,
                                   uint32_t choice) {
  { M::name } -> std::convertible_to<std::string_view>;                // the name histories use
  { M::partition_by_key } -> std::convertible_to<bool>;                // P-compositional by key
  { M::ops[0] } -> std::convertible_to<const OpSpec&>;                 // the operations and their results
  { M::initial() } -> std::same_as<typename M::State>;
  { M::step(s, op, keys, choice) } -> std::same_as<bool>;              // false: the result is impossible here
  { M::choices(cs, op, keys) } -> std::convertible_to<uint32_t>;       // successors of a nondeterministic step
  { M::hash(cs) } -> std::convertible_to<uint64_t>;
  { M::describe(cs) } -> std::convertible_to<std::string>;
  { cs == cs } -> std::convertible_to<bool>;                           // memoized configurations compare states
  { M::leaves_state_unchanged(op) } -> std::convertible_to<bool>;      // droppable by the shrinker
  { M::admits(cs, op, keys) } -> std::convertible_to<bool>;            // a cheap necessary test for step
  { M::lazy(op) } -> std::convertible_to<bool>;
  { M::helps(op, op, keys) } -> std::convertible_to<bool>;
  { M::invertible(op) } -> std::convertible_to<bool>;
  { M::undo(s, op, keys) };
};

}  // namespace warpcheck
