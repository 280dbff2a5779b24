#include "stress/run/team_batches.hpp"

#include <algorithm>
#include <numeric>
#include <tuple>
#include <vector>

namespace warpcheck {

void stamp_by_team_batch(History& h) {
  const size_t n = h.ops.size();
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  auto lane_of = [&](uint32_t i) { return std::make_tuple(h.ops[i].launch, h.ops[i].team, h.ops[i].lane); };
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return std::make_tuple(lane_of(a), h.ops[a].call, a) < std::make_tuple(lane_of(b), h.ops[b].call, b);
  });
  // Each operation's round: its place among its lane's operations.
  std::vector<uint32_t> round(n);
  for (size_t k = 0; k < n; ++k)
    round[order[k]] = k > 0 && lane_of(order[k]) == lane_of(order[k - 1]) ? round[order[k - 1]] + 1 : 0;
  auto batch_of = [&](uint32_t i) { return std::make_tuple(h.ops[i].launch, h.ops[i].team, round[i]); };
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return std::make_pair(batch_of(a), a) < std::make_pair(batch_of(b), b); });
  for (size_t begin = 0, end; begin < n; begin = end) {
    uint64_t call = kPendingTime, ret = 0;
    bool completed = false;
    for (end = begin; end < n && batch_of(order[end]) == batch_of(order[begin]); ++end) {
      const Operation& op = h.ops[order[end]];
      call = std::min(call, op.call);
      if (!op.pending()) ret = std::max(ret, op.ret), completed = true;
    }
    for (size_t k = begin; k < end; ++k) {
      Operation& op = h.ops[order[k]];
      op.call = call;
      if (completed && !op.pending()) op.ret = ret;
    }
  }
}

}  // namespace warpcheck
