// The drop-in recorder's device side: begin and end an operation from code
// that was not written against the team layer. Three callers:
//  - a CUDA kernel: begin(kind, ...) takes the stream from the calling
//    thread's indices (its thread, tile, warp or block, by team_kind);
//  - a team of the layer (the simulator's, the GPU's): begin(t, kind, ...)
//    takes the stream from the team and stamps with the team's clock;
//  - host threads: begin_on(stream, lane, kind, ...).
// The records, their stamps and fences are history_log's (begin_at / end):
// the invocation stamp, then a fence, before the operation's first shared
// access; a fence, then the response stamp, after its last. A full stream
// counts what it lost; an operation of a stream past the log's is counted
// as unrecorded. Either marks the run incomplete (never LINEARIZABLE).
#pragma once
#include <concepts>
#include <cstdint>

#include "structures/core/recorder/history_log.hpp"
#include "structures/core/recorder/stamp.hpp"

namespace warpcheck::record {

// Who shares one stream of records. The operations of one stream never
// overlap in time: a thread runs one at a time; a tile (a cooperative
// group of 2 to 32 threads of one block: cg::tiled_partition<N>), a warp
// or a block runs one at a time, together, and one of its threads (the
// same for begin and end) records it.
enum class team_kind : uint8_t { thread, warp, block, tile };

// A begun operation: what end() needs.
struct op_handle {
  uint32_t stream = history_log::kNoSlot;  // kNoSlot: not recorded at all
  uint32_t slot = history_log::kNoSlot;    // kNoSlot: its stream was full (counted as lost)
  WC_HD bool recorded() const { return slot != history_log::kNoSlot; }
};

// What a begin with a team needs of it: who it is, its clock and its fence.
template <class T>
concept StampingTeam = requires(T& t, const T& ct, uint64_t* ticket) {
  { ct.now(core::clock_kind::ticket, ticket) } -> std::convertible_to<uint64_t>;
  t.fence(core::order::seq_cst, core::scope::gpu);
  { ct.team_id() } -> std::convertible_to<uint32_t>;
  { ct.lane() } -> std::convertible_to<uint32_t>;
  { ct.size() } -> std::convertible_to<uint32_t>;
};

// The stamps of code with no team (core/recorder/stamp.hpp).
struct bare_stamps {
  WC_HD WC_FORCE_INLINE uint64_t now(core::clock_kind clock, uint64_t* ticket) const {
    return core::recorder_now(clock, ticket);
  }
  WC_HD WC_FORCE_INLINE void fence(core::order, core::scope) const { core::recorder_fence(); }
};

// A view of the recorder's buffers (device or host memory); copy it by value
// into kernels. A default-constructed view records nothing.
struct log_view {
  history_log log;
  team_kind team = team_kind::thread;
  uint32_t tile_size = 0;          // threads a tile (team_kind::tile), 0 otherwise
  uint32_t* unrecorded = nullptr;  // one counter: operations of streams past log.streams

  // The stream and lane of a kernel's thread: its thread's, tile's, warp's
  // or block's stream (tiles and warps numbered within blocks, as
  // tiled_partition numbers them), `block` and `thread` linearized.
  WC_HD WC_FORCE_INLINE void place_of(uint64_t block, uint32_t thread, uint32_t per_block, uint64_t& stream,
                                      uint32_t& lane) const {
    stream = block;
    lane = thread;
    if (team == team_kind::thread) {
      stream = block * per_block + thread;
      lane = 0;
    } else if (team == team_kind::warp || team == team_kind::tile) {
      const uint32_t size = team == team_kind::warp ? 32 : tile_size;
      stream = block * ((per_block + size - 1) / size) + thread / size;
      lane = thread % size;
    }
  }

#if defined(__CUDACC__)
  // From a kernel: the stream is the calling thread's, tile's, warp's or
  // block's (grids and blocks of any dimension).
  __device__ WC_FORCE_INLINE op_handle begin(OpKind kind, int64_t key = 0, int64_t value = 0,
                                             int64_t expected = 0) const {
    const uint64_t block = blockIdx.x + uint64_t(gridDim.x) * (blockIdx.y + uint64_t(gridDim.y) * blockIdx.z);
    const uint32_t thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    uint64_t stream;
    uint32_t lane;
    place_of(block, thread, blockDim.x * blockDim.y * blockDim.z, stream, lane);
    bare_stamps stamps;
    return begin_with(stamps, stream, lane, kind, key, value, expected);
  }
#endif

  // From a team of the layer: thread streams are the team's lanes
  // (team_id * size + lane), tile, warp and block streams the team.
  template <StampingTeam Team>
  WC_HD WC_FORCE_INLINE op_handle begin(Team& t, OpKind kind, int64_t key = 0, int64_t value = 0,
                                        int64_t expected = 0) const {
    const uint64_t stream = team == team_kind::thread ? uint64_t(t.team_id()) * t.size() + t.lane() : t.team_id();
    return begin_with(t, stream, team == team_kind::thread ? 0 : t.lane(), kind, key, value, expected);
  }
  template <StampingTeam Team>
  WC_HD WC_FORCE_INLINE void end(Team& t, op_handle op, ResultKind result_kind = ResultKind::None,
                                 int64_t result = 0) const {
    if (op.stream != history_log::kNoSlot) log.end(t, op.stream, op.slot, result_kind, result);
  }

  // From anywhere (host threads): the stream named.
  WC_HD WC_FORCE_INLINE op_handle begin_on(uint32_t stream, uint32_t lane, OpKind kind, int64_t key = 0,
                                           int64_t value = 0, int64_t expected = 0) const {
    bare_stamps stamps;
    return begin_with(stamps, stream, lane, kind, key, value, expected);
  }

  // Ends an operation begun without a team (begin(kind, ...) or begin_on).
  WC_HD WC_FORCE_INLINE void end(op_handle op, ResultKind result_kind = ResultKind::None, int64_t result = 0) const {
    bare_stamps stamps;
    if (op.stream != history_log::kNoSlot) log.end(stamps, op.stream, op.slot, result_kind, result);
  }

 private:
  template <class S>
  WC_HD WC_FORCE_INLINE op_handle begin_with(S& stamps, uint64_t stream, uint32_t lane, OpKind kind, int64_t key,
                                             int64_t value, int64_t expected) const {
    if (!log.records) return {};
    if (stream >= log.streams) {
      if (unrecorded) core::recorder_count(unrecorded);
      return {};
    }
    const uint32_t s = static_cast<uint32_t>(stream);
    return {s, log.begin(stamps, s, kind, key, value, expected, lane)};
  }
};

}  // namespace warpcheck::record
