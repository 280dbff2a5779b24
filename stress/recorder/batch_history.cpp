#include "stress/recorder/batch_history.hpp"

#include <stdexcept>
#include <string>

namespace warpcheck {

uint64_t append_batch_launch(HostLog& log, const BatchLaunch& b, const std::function<core::workload_op(uint64_t)>& input) {
  if (b.per_lane == 0) throw std::invalid_argument("batch recording: per_lane must be at least 1");
  history_log& v = log.view();
  const uint64_t per_team = uint64_t(32) * b.per_lane;
  const uint64_t teams = (b.count + per_team - 1) / per_team;
  if (teams > v.streams) throw std::invalid_argument("batch recording: " + std::to_string(teams) + " teams, the log has " +
                                                     std::to_string(v.streams) + " streams");
  uint64_t appended = 0;
  for (uint64_t team = 0; team < teams; ++team) {
    const uint64_t call = b.stamps[2 * team], ret = b.stamps[2 * team + 1];
    if (call == batch_log::kNoStamp) continue;  // never began
    const uint32_t s = static_cast<uint32_t>(team);
    for (uint64_t k = 0; k < per_team; ++k) {
      const uint64_t i = team * per_team + k;
      if (i >= b.count) break;
      const uint32_t slot = v.reserve_slots(s, 1);
      if (slot >= v.capacity) continue;  // counted as lost
      const core::workload_op op = input(i);
      const uint64_t word = b.results[i];
      log_record& r = log.records[size_t(s) * v.capacity + slot];
      r = log_record{};
      r.call = call;
      r.key = op.key;
      r.value = op.value;
      r.lane = static_cast<uint32_t>(k % 32);
      r.kind = static_cast<uint8_t>(op.kind);
      if (ret == batch_log::kNoStamp || !batch_log::done(word)) {
        r.ret = kLogPending;
      } else {
        r.ret = ret;
        r.result_kind = static_cast<uint8_t>(batch_log::kind_of(word));
        r.result = batch_log::value_of(word);
      }
      ++appended;
    }
  }
  return appended;
}

}  // namespace warpcheck
