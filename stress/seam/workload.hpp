// Stress workloads: one generator, so that a seed means one workload on
// every back-end. Slots come from RapidCheck generators (seeded, so a seed
// names its workload, and shrinkable, so a failing workload can be made
// smaller: operations emptied, keys lowered, kinds simplified, while it
// still fails).
//
// A workload is teams x lanes x per_lane slots (lanes: 32 for a warp's
// work sharing, 1 for a team with one queue, like a block that batches).
// Contention knobs:
//  - hot keys: a fraction of the operations on a few hot keys;
//  - same key in a warp: a lane takes the key of the lane before it;
//  - churn: an erase is followed, in its lane, by a re-insert of its key;
//  - phases: each lane runs its inserts first, then the rest.
// Inserted values are the slot's index + 1: unique in every workload,
// shrunk ones included.
//
// Batched workloads (a batched priority queue's): an insert is a push of
// `key + 1` keys (1 to `keys`; full_batches is the chance of a full one),
// whose value seeds the keys (the structure's driver draws them); an erase
// is a pop.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "structures/core/workload_op.hpp"

namespace warpcheck {

struct OpMix {
  uint32_t insert = 50, erase = 20, contains = 30;  // relative weights
};

// "insert=50,erase=20,contains=30" (also delete= for erase, search= for
// contains); throws std::invalid_argument with what is wrong.
OpMix parse_op_mix(const std::string& text);
std::string format_op_mix(const OpMix& mix);

// The operation each weight of a mix stands for in a given structure.
struct OpKinds {
  OpKind insert = OpKind::Insert, erase = OpKind::Erase, search = OpKind::Contains;
};


struct ContentionKnobs {
  uint32_t hot_keys = 0;       // how many hot keys (0: none)
  double hot_fraction = 0;     // of the operations, on them
  double same_key_in_warp = 0; // chance a lane takes the previous lane's key
  double churn = 0;            // chance an erase is followed by a re-insert
  double full_batches = 0;     // batched: chance a push carries the most keys
  bool phases = false;         // each lane: inserts first, then the rest
};

struct WorkloadShape {
  uint32_t teams = 1, per_lane = 1;
  uint32_t lanes = 32;   // queues a team
  int64_t keys = 8;      // keys drawn from [0, keys); batched: keys a push, at most
  OpMix mix;
  OpKinds kinds;
  ContentionKnobs knobs;
  bool batches = false;  // pushes and pops of batches (see above)
  size_t slots() const { return size_t(teams) * lanes * per_lane; }
};

// A warp-cooperative workload's shape (every lane of a team holds a queue
// of operations: core::run_team_ops); the configurations of the structures
// that run that way build on it.
struct WarpWorkload {
  uint32_t teams = 2, ops_per_lane = 2;
  int64_t keys = 16;  // keys in [0, keys)
  uint32_t prefill = 0;  // distinct keys inserted before the run (see prefill_ops)
  OpMix mix;
  ContentionKnobs knobs;
  // The largest value an insert writes: the run's slots, then the prefill's.
  uint64_t largest_value() const { return uint64_t(teams) * 32 * ops_per_lane + prefill; }
  WorkloadShape shape(OpKinds kinds = {}) const {
    WorkloadShape w;
    w.teams = teams;
    w.per_lane = ops_per_lane;
    w.keys = keys;
    w.mix = mix;
    w.kinds = kinds;
    w.knobs = knobs;
    return w;
  }
};

// The prefill of a warp workload: `w.prefill` distinct keys spread evenly
// over [0, keys), inserted by team 0 alone before the other teams start
// (on the GPU a launch of its own, so a cut in the history), so that the
// contention meets a structure that already holds keys. One team's queues:
// 32 lanes x per_lane slots, lane-major, the tail inactive. Values go on
// from the run's (slot count + 1), so every written value stays unique.
struct Prefill {
  std::vector<core::workload_op> ops;
  uint32_t per_lane = 0;
  uint32_t records() const { return 32 * per_lane; }
};
Prefill prefill_ops(const WarpWorkload& w, OpKind insert);

// One slot as generated; materialize() turns slots into operations.
struct GenSlot {
  uint8_t what = 0;        // 0 insert, 1 erase, 2 search, 3 empty
  uint32_t key = 0;        // index into [0, keys)
  bool copy_prev = false;  // take the previous lane's key
  bool churn = false;      // an erase whose lane re-inserts its key next
};

std::vector<GenSlot> generate_slots(const WorkloadShape& shape, uint64_t seed);
std::vector<core::workload_op> materialize(const WorkloadShape& shape, const std::vector<GenSlot>& slots);

// Shrinks a failing workload: tries the generator's shrinks (RapidCheck's
// order), keeping each that `still_fails`, within `max_tries` runs.
struct ShrinkResult {
  std::vector<GenSlot> slots;
  size_t tries = 0, accepted = 0;
  size_t active_before = 0, active_after = 0;
};
ShrinkResult shrink_workload(const WorkloadShape& shape, uint64_t seed,
                             const std::function<bool(const std::vector<core::workload_op>&)>& still_fails,
                             size_t max_tries);

// Text form, one operation per line ("upsert 5 129", "find 3", "push 3 17"
// for 3 keys seeded by 17, "-" for an empty slot, "-*N" for N of them), for
// --workload @FILE and the configuration a history stores. Reading checks
// the count and kinds.
std::string format_workload(const std::vector<core::workload_op>& ops);
std::vector<core::workload_op> parse_workload(const std::string& text, size_t slots);

}  // namespace warpcheck
