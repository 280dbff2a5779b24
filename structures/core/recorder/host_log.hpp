// Log buffers in host memory: the simulator's and the real-threads mode's,
// and the host copy of a device log.
#pragma once
#include <vector>

#include "structures/core/recorder/history_log.hpp"

namespace warpcheck {

// Log buffers in host memory (the simulator, the real-threads mode, and the
// host copy of a device log).
struct HostLog {
  std::vector<log_record> records;
  std::vector<uint32_t> counts, lost;
  std::vector<int64_t> keys;         // batches of keys, key_capacity per stream
  std::vector<uint32_t> key_counts;
  uint64_t ticket = 0;

  HostLog(uint32_t streams, uint32_t capacity, uint32_t key_capacity = 0)
      : records(size_t(streams) * capacity), counts(streams), lost(streams), keys(size_t(streams) * key_capacity),
        key_counts(streams) {
    view_.records = records.data();
    view_.counts = counts.data();
    view_.lost = lost.data();
    view_.ticket = &ticket;
    view_.streams = streams;
    view_.capacity = capacity;
    view_.keys = keys.data();
    view_.key_counts = key_counts.data();
    view_.key_capacity = key_capacity;
  }
  HostLog(const HostLog&) = delete;
  HostLog& operator=(const HostLog&) = delete;
  const history_log& view() const { return view_; }
  history_log& view() { return view_; }

 private:
  history_log view_;
};

}  // namespace warpcheck
