// Host side of the recorder: owns the buffers of a simulated run, and turns
// any run's buffers (copied back from the device, or in host memory) into a
// History for the checker.
#pragma once
#include <vector>

#include "linearizability/history.hpp"
#include "linearizability/recorder/history_log.hpp"

namespace warpcheck {

// Log buffers in host memory (the simulator, the real-threads mode, and the
// host copy of a device log).
struct HostLog {
  std::vector<log_record> records;
  std::vector<uint32_t> counts, lost;
  uint64_t ticket = 0;

  HostLog(uint32_t streams, uint32_t capacity) : records(size_t(streams) * capacity), counts(streams), lost(streams) {
    view_.records = records.data();
    view_.counts = counts.data();
    view_.lost = lost.data();
    view_.ticket = &ticket;
    view_.streams = streams;
    view_.capacity = capacity;
  }
  HostLog(const HostLog&) = delete;
  HostLog& operator=(const HostLog&) = delete;
  const history_log& view() const { return view_; }
  history_log& view() { return view_; }

 private:
  history_log view_;
};

// Streams in order, records in order: ids 0, 1, ...; team = stream.
// A record begun and never ended becomes a pending operation; any lost
// record marks the history incomplete. Throws std::runtime_error for a
// record that is not a well-formed operation of the model.
History history_from_log(const HostLog& log, HistoryMeta meta, uint32_t launch = 0);

}  // namespace warpcheck
