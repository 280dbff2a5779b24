// Host side of the recorder: turns any run's log buffers (copied back from
// the device, or in host memory) into a History for the checker.
#pragma once
#include "linearizability/history.hpp"
#include "structures/core/recorder/host_log.hpp"

namespace warpcheck {

// Streams in order, records in order: ids 0, 1, ...; team = stream.
// A record begun and never ended becomes a pending operation; any lost
// record marks the history incomplete. Throws std::runtime_error for a
// record that is not a well-formed operation of the model.
History history_from_log(const HostLog& log, HistoryMeta meta, uint32_t launch = 0);

}  // namespace warpcheck
