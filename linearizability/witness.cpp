#include "linearizability/witness.hpp"

#include <thrust/sort.h>

#include <span>

#include "linearizability/detail/bulk.hpp"
#include "linearizability/detail/parallel_parts.hpp"
#include "models/base/long_step.hpp"
#include "models/base/value_strings.hpp"
#include "models/model_traits.hpp"

namespace warpcheck {

namespace {

// Replays one key's operations in the given order. Only a pending multimap
// erase has several possible effects; the replay keeps a state at each such
// choice point and backtracks over them (iteratively: orders can be long).
// Deterministic steps run in place.
template <class Model>
std::optional<std::string> replay_in_order(const History& h, std::span<const uint32_t> order) {
  using State = typename Model::State;
  struct ChoicePoint {
    size_t position;
    uint32_t choice;
    State before;
  };
  const int64_t* pool = h.key_pool.data();
  std::vector<ChoicePoint> points;
  State state = Model::initial();
  size_t i = 0, deepest = 0;
  uint32_t choice = 0;
  while (i < order.size()) {
    if (i % 65536 == 65535) detail::poll_long_step();
    const OpData& d = h.ops[order[i]].data;
    const uint32_t choices = ModelTraits<Model>::choices(state, d, pool);
    bool applied = false;
    if (choices == 1 && choice == 0) {
      applied = Model::step(state, d, pool, 0);  // a failed step's partial effect is never used
    } else {
      for (; choice < choices && !applied; ++choice) {
        State next = state;
        if (Model::step(next, d, pool, choice)) {
          points.push_back(ChoicePoint{i, choice, std::move(state)});
          state = std::move(next);
          applied = true;
        }
      }
    }
    if (applied) {
      deepest = std::max(deepest, ++i);
      choice = 0;
      continue;
    }
    if (points.empty()) {
      const Operation& stuck = h.ops[order[std::min(deepest, order.size() - 1)]];
      return "operation id " + std::to_string(stuck.id) + " (" + describe_operation(h, stuck) +
             ") is not explained by the model at its place in the order";
    }
    i = points.back().position;
    choice = points.back().choice + 1;
    state = std::move(points.back().before);
    points.pop_back();
  }
  return std::nullopt;
}

template <class Model>
std::optional<std::string> replay(const History& h, const std::vector<uint32_t>& order) {
  if (!ModelTraits<Model>::partition_by_key) return replay_in_order<Model>(h, order);
  // Per key, keeping the order inside each key, so each replay state stays
  // small, and keys on several threads when there are enough operations.
  std::vector<uint32_t> by_key(order);
  std::vector<int64_t> keys(order.size());
  for (size_t i = 0; i < order.size(); ++i) keys[i] = h.ops[order[i]].data.key;
  detail::with_bulk_policy(keys.size(), [&](auto policy) { thrust::stable_sort_by_key(policy, keys.begin(), keys.end(), by_key.begin()); });
  std::vector<size_t> begin;
  for (size_t i = 0; i < by_key.size(); ++i)
    if (i == 0 || keys[i] != keys[i - 1]) begin.push_back(i);
  begin.push_back(by_key.size());
  std::vector<std::optional<std::string>> errors(begin.size() - 1);
  detail::parallel_parts(errors.size(), by_key.size(), [&](size_t k, unsigned) {
    const detail::ScopedValueStrings strings(h.strings);  // per thread
    errors[k] = replay_in_order<Model>(h, std::span<const uint32_t>(by_key.data() + begin[k], begin[k + 1] - begin[k]));
  });
  for (std::optional<std::string>& err : errors)
    if (err) return std::move(err);
  return std::nullopt;
}

}  // namespace

std::optional<std::string> witness_error(const History& h, const std::vector<uint32_t>& witness) {
  std::vector<uint8_t> seen(h.ops.size(), 0);
  uint64_t latest_call = 0;
  for (uint32_t i : witness) {
    if (i >= h.ops.size()) return "the order names an operation outside the history";
    if (seen[i]++) return "operation id " + std::to_string(h.ops[i].id) + " appears twice in the order";
    if (h.ops[i].ret < latest_call) return "the order puts operation id " + std::to_string(h.ops[i].id) + " after an operation invoked after it returned";
    latest_call = std::max(latest_call, h.ops[i].call);
  }
  for (size_t i = 0; i < h.ops.size(); ++i)
    if (!seen[i] && !h.ops[i].pending()) return "completed operation id " + std::to_string(h.ops[i].id) + " is missing from the order";
  const detail::ScopedValueStrings strings(h.strings);
  return visit_model(h.meta.model, [&](auto model) { return replay<decltype(model)>(h, witness); });
}

}  // namespace warpcheck
