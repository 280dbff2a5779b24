#include "linearizability/witness.hpp"

#include <map>

namespace warpcheck {

namespace {

// Replays one key's operations in witness order. A pending multimap erase
// may remove any live instance, so the order alone does not fix the states:
// backtrack over those choices (iteratively; the order can be long).
template <class Model>
std::optional<std::string> replay_in_order(const History& h, const std::vector<uint32_t>& order) {
  using State = typename Model::State;
  const int64_t* pool = h.key_pool.data();
  std::vector<State> states{Model::initial()};
  std::vector<uint32_t> chosen;
  size_t i = 0, deepest = 0;
  uint32_t choice = 0;
  while (i < order.size()) {
    const OpData& d = h.ops[order[i]].data;
    if (choice < Model::choices(states[i], d, pool)) {
      State next = states[i];
      if (Model::step(next, d, pool, choice)) {
        states.resize(i + 1);
        states.push_back(std::move(next));
        chosen.resize(i);
        chosen.push_back(choice);
        deepest = std::max(deepest, ++i);
        choice = 0;
      } else {
        ++choice;
      }
      continue;
    }
    if (i == 0) {
      const Operation& stuck = h.ops[order[deepest < order.size() ? deepest : 0]];
      return "operation id " + std::to_string(stuck.id) + " (" + describe_operation(h, stuck) +
             ") is not explained by the model at its place in the order";
    }
    --i;
    choice = chosen[i] + 1;
  }
  return std::nullopt;
}

template <class Model>
std::optional<std::string> replay(const History& h, const std::vector<uint32_t>& witness) {
  // Per key where the model is per-key, so each replay state stays small.
  std::map<int64_t, std::vector<uint32_t>> orders;
  for (uint32_t i : witness) orders[Model::partition_by_key ? h.ops[i].data.key : 0].push_back(i);
  for (const auto& [key, order] : orders)
    if (auto err = replay_in_order<Model>(h, order)) return err;
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
  return visit_model(h.meta.model, [&](auto model) { return replay<decltype(model)>(h, witness); });
}

}  // namespace warpcheck
