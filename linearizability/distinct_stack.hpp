// A decision procedure for LIFO stack histories whose pushed values are
// distinct, in O(n log n) plus the candidates it tries (O(n^2) at worst),
// where the general search can take exponential time. A decrease-and-
// conquer procedure in the manner of Lee and Mathur (OOPSLA 2025): it
// removes, one at a time, values whose removal keeps the history exactly
// as linearizable, and fails when none is left to remove.
//
// Write P(v) and Q(v) for the intervals of v's push and pop. The argument
// (in full in the .cpp file):
//  - a value whose push and pop overlap can be pushed and popped at once,
//    anywhere in their overlap: removing it changes nothing;
//  - every other value v is surely on the stack strictly between P(v)'s
//    response and Q(v)'s invocation (forever, if nobody popped it). Where
//    no such stretch holds, the stack can be empty: a pop that returned
//    null needs a moment of its interval there, and the history splits
//    there into parts that are decided apart;
//  - in a part (its stretches join into one), the value pushed first is at
//    the bottom throughout, so its push can go first and its pop last; a
//    value that can is removed, the rest splits again. No such value: not
//    linearizable, and the part's operations are the evidence.
// Pending operations: a pending push of a value nobody popped is left out;
// one of a popped value took effect. Pending pops are left out; when the
// rest is not linearizable the answer is Undecided and the evidence keeps
// every pending pop, for the general search to decide.
#pragma once

#include "linearizability/distinct_value_check.hpp"
#include "linearizability/history.hpp"

namespace warpcheck {

// Decides a stack history (polls the thread's long-step poller, so a
// checker's budget can stop it). NotApplicable for other models and pushed
// values that repeat.
DistinctValueCheck check_distinct_stack(const History& h);

}  // namespace warpcheck
