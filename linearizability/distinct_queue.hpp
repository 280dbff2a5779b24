// A decision procedure for FIFO queue histories whose enqueued values are
// distinct, in O(n log n) where the general search can take exponential
// time. Single enqueues and dequeues only (batched ones go to the search).
//
// With distinct values a linearization is fixed by the FIFO order of the
// dequeued values and where the null dequeues go. Write E(v) and D(v) for
// the intervals of v's enqueue and dequeue. Then (proof in the .cpp file):
//  - v must leave before w whenever real time says so: D(v) ends before
//    D(w) or E(w) begins, or E(v) ends before E(w) begins;
//  - a value nobody dequeued stays to the end, so it goes after every
//    dequeued one, and no null dequeue follows its enqueue;
//  - v is surely in the queue strictly between min(E(v).end, D(v).end) and
//    max(E(v).start, D(v).start), and a null dequeue needs a moment of its
//    interval outside all such stretches.
// The history is linearizable iff none of these fails (a dequeue of a value
// never enqueued or twice, before its enqueue, a pair of values each forced
// before the other, a covered null dequeue). Each failure names a few
// values; the history projected onto them (their operations, the null
// dequeue, enough pending dequeues) is not linearizable either, and is
// returned as the evidence. Otherwise a witness order is built.
//
// Pending operations: a pending enqueue of a value nobody dequeued is left
// out (leaving it out never hurts); one of a dequeued value took effect.
// A pending dequeue may have taken a value no completed dequeue returned:
// the earliest pending dequeues are matched with the values whose
// enqueues completed earliest among those. That matching is a heuristic: a
// witness it yields is checked like any other, and a failure that involves
// a value it matched (or left unmatched) is Undecided, its evidence only a
// suspect for the general search to decide.
#pragma once

#include "linearizability/distinct_value_check.hpp"
#include "linearizability/history.hpp"

namespace warpcheck {

// Decides a queue history (polls the thread's long-step poller, so a
// checker's budget can stop it). NotApplicable for other models, batched
// operations, and enqueued values that repeat.
DistinctValueCheck check_distinct_queue(const History& h);

}  // namespace warpcheck
