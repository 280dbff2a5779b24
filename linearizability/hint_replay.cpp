#include "linearizability/hint_replay.hpp"

#include <thrust/sort.h>

#include <algorithm>
#include <tuple>

#include "linearizability/bulk.hpp"
#include "linearizability/witness.hpp"

namespace warpcheck {

HintReplay replay_hints(const History& h) {
  HintReplay r;
  size_t missing = 0;
  for (uint32_t i = 0; i < h.ops.size(); ++i) {
    if (h.ops[i].has_hint) r.order.push_back(i);
    else if (!h.ops[i].pending()) ++missing;
  }
  if (missing > 0 || h.ops.empty()) {
    r.detail = h.ops.empty() ? "empty history" : std::to_string(missing) + " completed operation(s) carry no hint";
    r.order.clear();
    return r;
  }
  detail::with_bulk_policy(r.order.size(), [&](auto policy) {
    thrust::stable_sort(policy, r.order.begin(), r.order.end(), [&](uint32_t a, uint32_t b) {
      const Operation &x = h.ops[a], &y = h.ops[b];
      return std::tie(x.hint, x.call, x.id) < std::tie(y.hint, y.call, y.id);
    });
  });
  if (auto err = witness_error(h, r.order)) {
    r.outcome = HintReplay::Outcome::NotExplained;
    r.detail = "the claimed linearization points do not explain this history: " + *err;
    r.order.clear();
  } else {
    r.outcome = HintReplay::Outcome::Explained;
  }
  return r;
}

}  // namespace warpcheck
