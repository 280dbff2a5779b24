#include "stress/run/guide_from_history.hpp"

namespace warpcheck {

std::shared_ptr<const sim::Guide> guide_from_history(const History& h) {
  auto guide = std::make_shared<sim::Guide>();
  std::vector<uint32_t> next_slot;  // per team: a team's operations are in record order in the history
  for (const Operation& op : h.ops) {
    if (op.team >= next_slot.size()) next_slot.resize(size_t(op.team) + 1, 0);
    sim::GuideOp g;
    g.stream = op.team;
    g.slot = next_slot[op.team]++;
    g.job = op.lane;
    g.kind = op.data.kind;
    g.call = op.call;
    if (!op.pending()) {
      g.ret = op.ret;
      g.result_kind = op.data.result_kind;
      g.result = op.data.result;
    }
    const OpSpec* spec = h.model().spec(op.data.kind);
    g.compare_result = spec && spec->returns != Returns::Keys;  // a batch's keys are not in the recorder's result word
    guide->ops.push_back(g);
  }
  return guide;
}

}  // namespace warpcheck
