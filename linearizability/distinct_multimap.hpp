// A decision procedure for multimap histories in which no key gets the
// same value inserted twice, in O(n log n), where the general search can
// take exponential time in the overlap (a GPU's hot keys). Each key is
// decided apart (the model is P-compositional).
//
// Within a key, values interact only through absent answers. Write a(v)
// for the earliest response among v's operations (its insert, the erase
// that returned it, the finds that returned it) and b(v) for their latest
// invocation. Then (proof in the .cpp file):
//  - v's operations must fit in the order insert, finds, erase: nothing of
//    v returns before its insert is invoked, no find of v is invoked after
//    the erase of v returned; an erase or find returning a value the key
//    never got inserted, or two erases of one value, refute the history;
//  - v is surely live inside (a(v), b(v)); when a(v) >= b(v) its
//    operations can all take effect at one moment, back to back, and v is
//    never live between other operations at all. A value no completed
//    erase returned is live from a(v) on, unless a pending erase removes
//    it, which it can do only after b(v) and after its own invocation;
//  - an absent answer (erase or find) needs a moment t of its interval in
//    no (a(v), b(v)), at which the values live since before t (a(v) < t)
//    and returned by no completed erase are no more than the pending
//    erases invoked by t. These conditions are independent from one
//    absent answer to the next, and together they are sufficient.
// The witness puts every absent answer at its first such moment. A
// violation names the operations at fault: the projection of the key's
// history onto them (values with their defining operations, the absent
// answer, the pending erases that could have helped) is not linearizable
// either, and the general search confirms it.
#pragma once

#include "linearizability/distinct_value_check.hpp"
#include "linearizability/history.hpp"

namespace warpcheck {

// Decides a multimap history (polls the thread's long-step poller, so a
// checker's budget can stop it). NotApplicable for other models and for a
// key that gets one value inserted twice.
DistinctValueCheck check_distinct_multimap(const History& h);

}  // namespace warpcheck
