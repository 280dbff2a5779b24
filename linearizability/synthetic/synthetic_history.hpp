// Histories that are linearizable by construction: the model runs the
// operations one after another, then each operation is widened into a
// random interval around its point in that sequence (and some are left
// pending). Used by the main job, the benchmarks and the property tests.
#pragma once

#include <cstdint>

#include "linearizability/history.hpp"

namespace warpcheck {

struct SyntheticHistorySpec {
  ModelId model = ModelId::Set;
  size_t operations = 1000;
  int64_t keys = 16;      // keys drawn uniformly from [0, keys)
  uint64_t seed = 1;
  uint64_t overlap = 8;   // about how many other operations each one overlaps
  double pending = 0.0;   // fraction left pending (half of them took effect)
  uint32_t teams = 32;
  uint32_t batch = 4;     // priority queue, batched queue: most keys per batch
  bool hints = false;     // record each operation's point as its linearization-point hint
  // When > 0, operations come in batches of this many (a warp's lanes): each
  // spans its whole batch, overlapping every other operation of the batch
  // and none outside it; `overlap` is then ignored.
  uint32_t warp_batch = 0;
  // Priority queue, the shape of a batched GPU priority queue's recorded
  // run: every push carries exactly `batch` keys and every pop asks for
  // `batch` (full batches); with `phases`, the first half of the
  // operations are the model's first operation (pushes), the rest its
  // second (pops). A queue draws its
  // batched enqueues and dequeues with full batches, its single ones
  // otherwise. Queues and stacks get distinct values (from the operation's
  // index), whatever `keys` says.
  bool full_batches = false;
  bool phases = false;
  // Priority queue: this many completed pops are made wrong after the fact,
  // each trading its largest key for the next pop's smallest (a violation).
  // Queue, stack: this many pairs of completed removals a quarter of them
  // apart trade their answers (a violation unless the history is small).
  uint32_t wrong_pops = 0;
};

History make_linearizable_history(const SyntheticHistorySpec& spec);

}  // namespace warpcheck
