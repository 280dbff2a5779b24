// A decision procedure for register, cas-register and kv histories in which
// no value is written twice to one register (key), in O(n log n), where the
// general search takes exponential time in the overlap (a GPU's hot keys).
//
// With distinct written values every read names the write it saw, and a
// successful CAS names the value it replaced, so the values fall into
// chains: a plain write (or the unwritten start) followed by the CASes that
// replaced one value of the chain after another. A chain's values are
// current one after another with nothing between them, so a chain lives
// on one stretch of the linearization. Write a(C) for the earliest
// response among a chain's operations and b(C) for their latest
// invocation; then (proof in the .cpp file), with the failed CASes set
// aside, the history is linearizable iff
//  - each chain's operations fit its order (writer, reads, the CAS that
//    replaces the value, its reads, ...), and no two values are replaced
//    by a CAS each from the same value, and every CAS replaced a value
//    written before it;
//  - the sure stretches (a(C), b(C)) of the chains with a(C) < b(C) are
//    disjoint, and every other chain (whose operations share the moments
//    [b(C), a(C)]) has such a moment outside all of them; reads of the
//    unwritten register go before every write.
// A failed CAS of e needs a moment when e is not current: the witness puts
// it before e's write or after the write that replaced it, or makes room
// with a writer nobody needed (a pending write, a chain that can move);
// where e is surely current throughout its interval, that is a violation.
// A failed CAS that none of these places leaves the history undecided
// (the general search then decides it).
#pragma once

#include "linearizability/distinct_value_check.hpp"
#include "linearizability/history.hpp"

namespace warpcheck {

// Decides a register, cas-register or kv history (polls the thread's
// long-step poller, so a checker's budget can stop it). NotApplicable for
// other models, for a value written twice to one register and for appends.
DistinctValueCheck check_distinct_register(const History& h);

}  // namespace warpcheck
