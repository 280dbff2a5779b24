// The recorder: per-team log buffers that structures' drivers write from the
// device (or from the simulator) with no shared counter on the hot path.
// Each stream (a team) owns its records and its count; when its buffer is
// full, the record is dropped and counted as lost, which marks the run
// incomplete (never judged LINEARIZABLE).
//
// An operation is stamped like this:
//   begin: invocation stamp, then a fence, before the first shared access;
//   end:   a fence after the last shared access, then the response stamp.
// A record begun but never ended (a team gave up) is a pending operation.
//
// Clocks: on the GPU %globaltimer (ns) by default, or a global atomic
// ticket; in the simulator the logical step. Ties count as concurrent.
#pragma once
#include <cstdint>

#include "models/op.hpp"
#include "structures/core/team.hpp"

namespace warpcheck {

inline constexpr uint64_t kLogPending = ~uint64_t(0);

// One operation as the device writes it (64 bytes); the stream is the team.
struct log_record {
  uint64_t call;
  uint64_t ret;   // kLogPending until the operation ends
  uint64_t hint;  // linearization-point stamp, when has_hint
  int64_t key, value, expected, result;
  uint32_t lane;  // lane or job id inside the team
  uint8_t kind, result_kind, has_hint, pad;
};
static_assert(sizeof(log_record) == 64);

// A device view: pointers into memory the host owns (device memory on the
// GPU, host memory in the simulator). Copy it by value into kernels.
struct history_log {
  static constexpr uint32_t kNoSlot = ~0u;
  log_record* records = nullptr;  // streams * capacity
  uint32_t* counts = nullptr;     // per stream: records written
  uint32_t* lost = nullptr;       // per stream: records that did not fit
  uint64_t* ticket = nullptr;     // clock_kind::ticket
  uint32_t streams = 0, capacity = 0;
  core::clock_kind clock = core::clock_kind::global_timer;

  // Called by the lane that owns the operation. Returns its slot, or kNoSlot
  // when the stream is full (then end() and hint() do nothing).
  template <class Team>
  WC_HD WC_FORCE_INLINE uint32_t begin(Team& t, uint32_t stream, OpKind kind, int64_t key, int64_t value,
                                       int64_t expected, uint32_t lane) const {
    const uint32_t slot = counts[stream];
    if (slot >= capacity) {
      lost[stream] = lost[stream] + 1;
      return kNoSlot;
    }
    counts[stream] = slot + 1;
    log_record& r = records[size_t(stream) * capacity + slot];
    r.ret = kLogPending;
    r.key = key;
    r.value = value;
    r.expected = expected;
    r.result = 0;
    r.lane = lane;
    r.kind = static_cast<uint8_t>(kind);
    r.result_kind = static_cast<uint8_t>(ResultKind::None);
    r.has_hint = 0;
    r.pad = 0;
    r.hint = 0;
    r.call = t.now(clock, ticket);
    t.fence(core::order::seq_cst, core::scope::gpu);
    return slot;
  }

  template <class Team>
  WC_HD WC_FORCE_INLINE void end(Team& t, uint32_t stream, uint32_t slot, ResultKind kind, int64_t result) const {
    t.fence(core::order::seq_cst, core::scope::gpu);
    const uint64_t stamp = t.now(clock, ticket);
    if (slot == kNoSlot) return;
    log_record& r = records[size_t(stream) * capacity + slot];
    r.result_kind = static_cast<uint8_t>(kind);
    r.result = result;
    r.ret = stamp;
  }

  // A linearization-point hint: stamped where a proof says the operation takes effect.
  template <class Team>
  WC_HD WC_FORCE_INLINE void hint(Team& t, uint32_t stream, uint32_t slot) const {
    const uint64_t stamp = t.now(clock, ticket);
    if (slot == kNoSlot) return;
    log_record& r = records[size_t(stream) * capacity + slot];
    r.hint = stamp;
    r.has_hint = 1;
  }
};

}  // namespace warpcheck
