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
// invocation; then (the argument below), with the failed CASes set
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
//
// Why it is right. Registers (kv keys) are decided apart (P-compositional);
// fix one. A linearization is an order of the operations that took effect
// which respects real time; as in distinct_multimap.cpp it is the same as
// points p(X) inside the intervals, ties in any order. The state is the
// unwritten start or one value; no value is written twice.
//  0. Who took effect. A completed read or a successful CAS names the value
//     it saw; a pending write or CAS whose value somebody saw (a read, a
//     CAS from it, transitively) took effect, the CAS successfully; other
//     pending writes and CASes are spare: any linearization stays one
//     without them, unless a failed CAS needs their value gone (the
//     witness then takes one), and pending reads are left out. A value
//     seen but never written, or a CAS from it, refutes at once.
//  1. Chains. A successful CAS from e is the only operation that can
//     follow e's writer with e current and end e's time, so two of them
//     from one e refute (with e's writer), and the values form chains: a
//     plain write (or the start) v0, the CAS from v0 writing v1, the CAS
//     from v1 ... (a cycle of CASes has no first write: refuted). Each
//     value's reads go between its writer and the CAS from it. So a
//     chain's operations must fit the order w(v0), reads of v0, w(v1),
//     reads of v1, ...: each at or after the latest invocation before it
//     (a greedy pass; an operation that returned before an earlier
//     one's invocation, with the chain between them, is the evidence).
//     And from w(v0) to its last operation only the chain's own writes
//     happen (each CAS needs the value before it current): a chain lives
//     on one stretch, between other chains.
//  2. Stretches. With a(C) the earliest response and b(C) the latest
//     invocation among a chain's operations, p(w(v0)) <= a(C) and the
//     last operation's point is >= b(C): C is current throughout the open
//     (a(C), b(C)). Two chains with a < b each whose stretches meet
//     refute (the four operations giving a and b, with their chains up to
//     them). A chain with a(C) >= b(C) has every interval holding
//     [b(C), a(C)]; all of it must go before the head of, or after the
//     last operation of, any stretch chain Z, so a(Z) >= b(C) or
//     a(C) >= b(Z): it needs a moment of [b(C), a(C)] strictly inside no
//     stretch, and when the stretches are disjoint, the end of the one
//     covering b(C), if any, is the first such moment. Reads of the
//     unwritten start go before every write: every a(C) >= their latest
//     invocation (which, as a stretch from minus infinity, is the same
//     rule).
//  3. Sufficiency, failed CASes aside. Put each stretch chain's
//     operations at max(a(C), its invocation, the invocations before it
//     in the chain) (inside its interval by 1 and the definition of a;
//     at most b(C)), each other chain at its moment back to back, reads
//     of the start at their invocations. At one moment the order is:
//     reads of the start, the chain going on, chains at that moment,
//     the chain starting there. Every read then sees its value and every
//     CAS its expected value: nothing else is written inside a chain.
//  4. Failed CASes. A failed CAS X of e needs a moment where e is not
//     current. e is surely current on (A_e, B_e), A_e the earliest response
//     among w(e) and the chain after it, B_e the latest invocation among
//     e's reads and the CAS from e: p(w(e)) <= A_e, and every point
//     strictly before B_e precedes an operation that needs e. X strictly
//     inside refutes (X, those two operations, the chain up to them). The
//     witness puts X before w(e) or after the write that replaced e in
//     the layout of 3, or makes that write come sooner: a spare pending
//     writer, or a chain of 2 that nothing placed so far relies on (it
//     then moves to a free moment inside X's interval, after e's chain,
//     or later than X's invocation, when e's is that chain). When none
//     helps the procedure does not decide: the general search does.
// The witness is replayed before it is given (the checker does), and a
// violation's evidence is confirmed by the general search.
//
// Evidence. Each refutation above names a few operations and, for each,
// the chain up to its value (the writes and CASes its precondition rests
// on) and, for a pending writer, an operation that saw its value. On that
// sub-history the same argument goes through: the chains are the same
// chains cut short, a and b of the named chains are the same, so it is
// not linearizable either; and the argument is what makes the history
// itself not linearizable.
#pragma once

#include "linearizability/distinct_value_check.hpp"
#include "linearizability/history.hpp"

namespace warpcheck {

// Decides a register, cas-register or kv history (polls the thread's
// long-step poller, so a checker's budget can stop it). NotApplicable for
// other models, for a value written twice to one register and for appends.
DistinctValueCheck check_distinct_register(const History& h);

}  // namespace warpcheck
