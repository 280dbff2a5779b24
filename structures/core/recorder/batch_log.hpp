// Recording per warp batch (core::run_team_bulk): a warp stamps once when
// it begins the operations it holds and once when it has finished them
// all, and each operation leaves one 8-byte result word; its arguments are
// the launch's input arrays, which the host joins back (stress/recorder/
// batch_history.hpp). Against history_log's records (64 bytes, two clock
// reads and two sequentially consistent fences an operation, written one
// operation at a time by its owner lane), a batch of 32 x K operations
// costs two clock reads and two fences, and 8 bytes an operation written by
// all lanes at once.
//
// Why this is sound. Every operation of the batch is given the interval
// [call, ret] of the batch. Lane 0 reads the clock and stores `call`, then
// a fence.sc.gpu waits until that store is performed (it is after the
// clock read, whose value it holds), then a __syncwarp orders every lane
// of the warp after it: no lane touches the structure for the batch
// before `call` was taken. At the end, the warp leaves its work-sharing
// loop on a ballot that every lane takes after its last shared access (the
// loads that fed it returned, the atomics returned their old values), a
// __syncwarp, then lane 0's fence.sc.gpu waits until every access issued
// before it is performed (stores included: the link CAS is a release), and
// only then reads the clock for `ret`. Each operation's effect (its
// linearization point, an access of the structure) thus lies between
// `call` and `ret` in real time, which is all an interval has to say. The
// intervals are wider than per-operation ones (every operation of a warp
// overlaps the warp's others), so the checker sees more concurrency, and
// never less than there was. (Porcupine's issue 40 is the failure of the
// other direction: a clock read that the memory system may move past the
// operation's load; the fences here keep each clock read on its side.)
//
// An operation whose result word is not marked done (the warp gave up
// before finishing it), or whose batch has no `ret` (the warp gave up
// later), is pending; a batch with no `call` never began (its operations
// are not in the history).
#pragma once
#include <cstdint>

#include "models/op.hpp"
#include "structures/core/team.hpp"

namespace warpcheck {

struct batch_log {
  static constexpr uint64_t kNoStamp = ~uint64_t(0);  // the buffers' fill: no call, or no ret yet
  static constexpr uint64_t kDone = uint64_t(1) << 63;
  uint64_t* stamps = nullptr;   // per team: [2 team] call, [2 team + 1] ret; filled with kNoStamp
  uint64_t* results = nullptr;  // per operation (the input's index): result_word(), or 0 (not done)
  uint64_t* ticket = nullptr;   // clock_kind::ticket
  core::clock_kind clock = core::clock_kind::global_timer;

  WC_HD static uint64_t result_word(ResultKind kind, uint32_t value) {
    return kDone | uint64_t(static_cast<uint8_t>(kind)) << 32 | value;
  }
  WC_HD static bool done(uint64_t word) { return (word & kDone) != 0; }
  WC_HD static ResultKind kind_of(uint64_t word) { return static_cast<ResultKind>((word >> 32) & 0xFF); }
  WC_HD static uint32_t value_of(uint64_t word) { return static_cast<uint32_t>(word); }
};

}  // namespace warpcheck
