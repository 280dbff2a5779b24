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
//
// Batched operations (priority-queue push and pop) keep their keys in the
// stream's own key buffer: the owner reserves room (reserve_keys), the team
// writes the keys in parallel, and the record names where they are. A batch
// that does not fit is lost like a record (the run becomes incomplete).
#pragma once
#include <cstdint>

#include "models/op.hpp"
#include "structures/core/team.hpp"

namespace warpcheck {

inline constexpr uint64_t kLogPending = ~uint64_t(0);

// One operation as the device writes it (64 bytes); the stream is the team.
// For push and pop, `key` is the offset of the pushed keys in the stream's
// key buffer and `value` their count (pop: how many it asks for), and
// `expected` is the offset of the popped keys and `result` their count.
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
  int64_t* keys = nullptr;          // streams * key_capacity: batches of keys
  uint32_t* key_counts = nullptr;   // per stream: keys reserved
  uint32_t key_capacity = 0;        // per stream (0: no batched operations)
  // A planted recorder bug, for the framework's own tests: the response
  // stamp taken before the fence that orders the operation's accesses, so
  // an operation stamped as begun later may not see this one's writes.
  bool stamps_before_fence = false;
  // The stamps' fences: gpu scope orders the GPU's operations; with CPU
  // threads' operations in the history too (a host observer) only system
  // scope orders a GPU operation's accesses before a CPU thread's.
  core::scope stamp_scope = core::scope::gpu;

  // Called by the lane that owns the operation. Returns its slot, or kNoSlot
  // when the stream is full (then end() and hint() do nothing).
  template <class Team>
  WC_HD WC_FORCE_INLINE uint32_t begin(Team& t, uint32_t stream, OpKind kind, int64_t key, int64_t value,
                                       int64_t expected, uint32_t lane) const {
    return begin_at(t, stream, reserve_slots(stream, 1), kind, key, value, expected, lane);
  }

  // Room for n operations that lanes of one team begin at once (a warp's
  // lanes each fetching a job, clStash), reserved by one lane: the first
  // slot; the lane of rank r begins at first + r (begin_at). The slots past
  // the capacity are counted as lost.
  WC_HD WC_FORCE_INLINE uint32_t reserve_slots(uint32_t stream, uint32_t n) const {
    const uint32_t first = counts[stream];
    const uint32_t fit = first >= capacity ? 0 : (n < capacity - first ? n : capacity - first);
    counts[stream] = first + fit;
    if (fit < n) lost[stream] = lost[stream] + (n - fit);
    return first;
  }

  // begin() at a slot reserve_slots() gave; kNoSlot for one past the
  // capacity (already counted as lost).
  template <class Team>
  WC_HD WC_FORCE_INLINE uint32_t begin_at(Team& t, uint32_t stream, uint32_t slot, OpKind kind, int64_t key,
                                          int64_t value, int64_t expected, uint32_t lane) const {
    if (slot >= capacity) return kNoSlot;
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
    if constexpr (core::RecordsOperations<Team>) t.operation_begins(this, stream, slot, lane, kind);  // may wait: a guided run
    r.call = t.now(clock, ticket);
    t.fence(core::order::seq_cst, stamp_scope);
    return slot;
  }

  template <class Team>
  WC_HD WC_FORCE_INLINE void end(Team& t, uint32_t stream, uint32_t slot, ResultKind kind, int64_t result) const {
    uint64_t stamp = 0;
    if (stamps_before_fence) stamp = t.now(clock, ticket);
    t.fence(core::order::seq_cst, stamp_scope);
    if (!stamps_before_fence) stamp = t.now(clock, ticket);
    if constexpr (core::RecordsOperations<Team>) t.operation_ends(this, stream, slot, kind, result);
    if (slot == kNoSlot) return;
    log_record& r = records[size_t(stream) * capacity + slot];
    r.result_kind = static_cast<uint8_t>(kind);
    r.result = result;
    r.ret = stamp;
  }

  // Called by the owning lane: room for n keys of a batch in the stream's
  // key buffer. Returns its offset, or kNoSlot when it does not fit (counted
  // as lost: the run is incomplete). The team writes them through key_at.
  WC_HD WC_FORCE_INLINE uint32_t reserve_keys(uint32_t stream, uint32_t n) const {
    const uint32_t at = key_counts[stream];
    if (n > key_capacity - at || at > key_capacity) {
      lost[stream] = lost[stream] + 1;
      return kNoSlot;
    }
    key_counts[stream] = at + n;
    return at;
  }
  WC_HD WC_FORCE_INLINE int64_t* key_at(uint32_t stream, uint32_t offset) const {
    return keys + size_t(stream) * key_capacity + offset;
  }

  // Called by the owning lane after begin(): where a push's keys are (or a
  // pop's count), then, at the end, where a pop's are. kNoSlot offsets (a
  // batch that did not fit) are kept as they are: the history marks them.
  WC_HD WC_FORCE_INLINE void batch_in(uint32_t stream, uint32_t slot, uint32_t offset, uint32_t count) const {
    if (slot == kNoSlot) return;
    log_record& r = records[size_t(stream) * capacity + slot];
    r.key = offset;
    r.value = count;
  }
  WC_HD WC_FORCE_INLINE void batch_out(uint32_t stream, uint32_t slot, uint32_t offset, uint32_t count) const {
    if (slot == kNoSlot) return;
    log_record& r = records[size_t(stream) * capacity + slot];
    r.expected = offset;
    r.result = count;
  }

  // A linearization-point hint: stamped where a proof says the operation takes effect.
  template <class Team>
  WC_HD WC_FORCE_INLINE void hint(Team& t, uint32_t stream, uint32_t slot) const {
    hint_at(stream, slot, t.now(clock, ticket));
  }
  // The same with a stamp the structure took (core::point_clock).
  WC_HD WC_FORCE_INLINE void hint_at(uint32_t stream, uint32_t slot, uint64_t stamp) const {
    if (slot == kNoSlot) return;
    log_record& r = records[size_t(stream) * capacity + slot];
    r.hint = stamp;
    r.has_hint = 1;
  }
};

}  // namespace warpcheck
