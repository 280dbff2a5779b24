// A procedure for unique-key map histories (insert-if-absent, upsert,
// erase, find) in which no key gets one value written twice, in
// O(n log n), where the general search takes exponential time in the
// overlap (a GPU's hot keys). Each key is decided apart.
//
// Within a key the state is absent or one value, and every find names the
// write it saw. Write a(v) for the earliest response among v's write and
// finds, b(v) for their latest invocation: v is surely current throughout
// (a(v), b(v)) (proof in the .cpp file). Refuted at once, each with the
// few operations that make it impossible:
//  - a find of a value never written, or one that returned before its
//    write was invoked;
//  - two values surely current at one moment (their stretches meet), or
//    a value whose operations share no moment outside another's stretch;
//  - an absent answer or a successful erase strictly inside a stretch;
//  - an insert that succeeded, or an absent answer, after a write that
//    returned before it was invoked, with no erase that could go between.
// Otherwise each value's write and finds are collapsed to one operation
// at one moment (a value with a stretch: the stretch contracted to a
// moment), so that no result names a value, and the general search
// decides what is left like a set, in near-linear time. A failed insert
// may need a value current between its write and its last find, which
// collapsing loses; when the collapsed history is not linearizable, every
// value some failed insert may need so is kept whole, and that history is
// linearizable exactly when the history is (the .cpp file argues it). Its
// search, once values are kept whole, can take long: the checker's budget
// stops it. A refutation there names the key's whole history, which the
// checker's search confirms and shrinks.
#pragma once

#include "linearizability/distinct_value_check.hpp"
#include "linearizability/history.hpp"

namespace warpcheck {

// Decides a map history, or leaves it undecided (polls the thread's
// long-step poller, so a checker's budget can stop it). NotApplicable for
// other models and for a key that gets one value written twice.
DistinctValueCheck check_distinct_map(const History& h);

}  // namespace warpcheck
