// Host side of the recorder: turns any run's log buffers (copied back from
// the device, or in host memory) into a History for the checker. The
// internal recorder's runs and the drop-in recorder's share it.
#pragma once
#include "linearizability/history.hpp"
#include "stress/recorder/recorder.hpp"
#include "structures/core/recorder/host_log.hpp"

namespace warpcheck {

// Streams in order, records in order: ids 0, 1, ...; team = stream.
// A record begun and never ended becomes a pending operation; any lost
// record marks the history incomplete. Throws std::runtime_error for a
// record that is not a well-formed operation of the model.
History history_from_log(const HostLog& log, HistoryMeta meta, uint32_t launch = 0);

namespace record {

// A drop-in recording's history: the settings' model, seed and
// configuration (with the recorder's own: its shape, what it lost) in the
// header; incomplete when records were lost or teams went unrecorded.
History recorded_history(const HostLog& log, const Settings& s, uint64_t unrecorded);
inline History recorded_history(const HostRecorder& r) {
  return recorded_history(r.log(), r.settings(), r.unrecorded());
}

}  // namespace record

}  // namespace warpcheck
