#include "linearizability/recorder/log_to_history.hpp"

#include <stdexcept>

namespace warpcheck {

History history_from_log(const HostLog& log, HistoryMeta meta, uint32_t launch) {
  History h;
  h.meta = std::move(meta);
  const history_log& v = log.view();
  for (uint32_t s = 0; s < v.streams; ++s) {
    if (log.counts[s] > v.capacity) throw std::runtime_error("recorder: stream " + std::to_string(s) + " count past its capacity");
    if (log.lost[s]) h.meta.incomplete = true;
    for (uint32_t i = 0; i < log.counts[s]; ++i) {
      const log_record& r = log.records[size_t(s) * v.capacity + i];
      if (r.kind >= kOpKindCount) throw std::runtime_error("recorder: stream " + std::to_string(s) + " record " +
                                                           std::to_string(i) + " has op kind " + std::to_string(r.kind));
      Operation op;
      op.id = h.ops.size();
      op.team = s;
      op.lane = r.lane;
      op.launch = launch;
      op.call = r.call;
      op.data.kind = static_cast<OpKind>(r.kind);
      op.data.key = r.key;
      op.data.value = r.value;
      op.data.expected = r.expected;
      if (r.ret == kLogPending) {
        op.data.pending = true;
        op.ret = kPendingTime;
      } else {
        op.ret = r.ret;
        op.data.result_kind = static_cast<ResultKind>(r.result_kind);
        op.data.result = r.result;
      }
      if (r.has_hint) {
        op.has_hint = true;
        op.hint = r.hint;
      }
      clear_unused_fields(h.model(), op);
      if (auto err = operation_error(h.model(), op, h.key_pool.size()))
        throw std::runtime_error("recorder: stream " + std::to_string(s) + " record " + std::to_string(i) + ": " + *err);
      h.ops.push_back(op);
    }
  }
  return h;
}

}  // namespace warpcheck
