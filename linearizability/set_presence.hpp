// A set history decided key by key from the key's presence alone, for
// keys inserted and erased over and over under heavy overlap (a GPU
// launch's hot keys), where the search's frontier grows with the overlap.
// It only proves: a witness found greedily, replayed by the checker before
// it is given; where it finds none, the search decides (refutations
// included). set_presence.cpp says how the witness is found.
#pragma once

#include "linearizability/distinct_value_check.hpp"

namespace warpcheck {

// Linearizable with a witness, NotApplicable for another model, or
// Undecided (why: the moment the greedy order ran short).
DistinctValueCheck check_set_presence(const History& h);

}  // namespace warpcheck
