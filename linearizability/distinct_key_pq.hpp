// Refutations of batched priority-queue histories whose pushed keys are
// distinct, named on a handful of operations and keys: a pop that passed
// over a key surely in the queue, two pops of which neither can go first, a
// key popped twice or never pushed. Refutes only: a history it finds
// nothing in goes to the search, as before.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "linearizability/history.hpp"

namespace warpcheck {

// Operations of a history cut down to a few keys: each push keeps only
// those keys, each pop returns only those it returned, asking for as many
// fewer as it returns fewer (so a pop that found the queue short still
// does). distinct_key_pq.cpp says why a refutation of the cut-down
// history refutes the whole.
struct KeyProjection {
  std::vector<uint32_t> ops;   // history indices, ascending
  std::vector<int64_t> keys;   // ascending
  std::string why;             // the argument, on these operations and keys
};

// A refutation on at most 6 operations (mostly 2 to 4), or nullopt: the
// history is not a priority queue's, a key is pushed twice, the argument
// found nothing, or its bounded work ran out (it says nothing then).
std::optional<KeyProjection> refute_distinct_key_pq(const History& h);

// The projection as a history of its own (ids, teams and times kept).
History project_onto_keys(const History& h, const KeyProjection& p);

}  // namespace warpcheck
