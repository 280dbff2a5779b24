#include "linearizability/witness.hpp"

#include <map>

namespace warpcheck {

namespace {

template <class Model>
std::optional<std::string> replay(const History& h, const std::vector<uint32_t>& witness) {
  // One state per key where the model is per-key, so replay stays cheap.
  std::map<int64_t, typename Model::State> states;
  for (uint32_t i : witness) {
    const OpData& d = h.ops[i].data;
    auto it = states.try_emplace(Model::partition_by_key ? d.key : 0, Model::initial()).first;
    bool ok = false;
    for (uint32_t c = 0; c < Model::choices(it->second, d, h.key_pool.data()) && !ok; ++c) {
      auto next = it->second;
      if (Model::step(next, d, h.key_pool.data(), c)) {
        it->second = next;
        ok = true;
      }
    }
    if (!ok) return "operation id " + std::to_string(h.ops[i].id) + " (" + describe_operation(h, h.ops[i]) + ") is not explained by the model at its place in the witness";
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> witness_error(const History& h, const std::vector<uint32_t>& witness) {
  std::vector<uint8_t> seen(h.ops.size(), 0);
  uint64_t latest_call = 0;
  for (uint32_t i : witness) {
    if (i >= h.ops.size()) return "witness names an operation outside the history";
    if (seen[i]++) return "operation id " + std::to_string(h.ops[i].id) + " appears twice in the witness";
    if (h.ops[i].ret < latest_call) return "witness puts operation id " + std::to_string(h.ops[i].id) + " after an operation invoked after it returned";
    latest_call = std::max(latest_call, h.ops[i].call);
  }
  for (size_t i = 0; i < h.ops.size(); ++i)
    if (!seen[i] && !h.ops[i].pending()) return "completed operation id " + std::to_string(h.ops[i].id) + " is missing from the witness";
  return visit_model(h.meta.model, [&](auto model) { return replay<decltype(model)>(h, witness); });
}

}  // namespace warpcheck
