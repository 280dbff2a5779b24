// One attempt of an insert (Figures 6-8) or of a retrieval or delete
// (Figures 9-10 and section III-B's deletion), at one bucket. The fixes of
// our findings are made here, each at its line.
//
// Orders and scopes: the ticket board is GPU memory, the table GPU or host
// memory (scope `ts`, system for a host table). As printed every access is
// plain or a relaxed atomic at GPU scope, and the one barrier is the fence
// before the access bit (section III-B). The fixes add the orders the
// printed code lacks: a reader's acquire load of the ticket orders its
// table loads after the pair it publishes (S6, acquire_ticket_load); a
// reservation acquires and a free releases at the table's scope, so that a
// bucket's new stores come after the reads of whoever freed it (S7,
// release_free_acquire_reserve); the table's words are relaxed atomics, not
// plain accesses (S8, relaxed_table_accesses).
#pragma once
#include <cstdint>

#include "structures/stadium/stadium_hash.hpp"

namespace warpcheck::structures {

namespace stadium_detail {

template <class Team>
class attempt_of {
 public:
  WC_HD attempt_of(Team& t, const stadium_hash& s, const core::workload_op& op, stadium_job& j)
      : t_(t), s_(s), op_(op), j_(j), key_(s.table.stored_key(op.key)), info_(s.table.info(key_, s.board.info_bits())),
        at_(s.board.at(j.pos)), ts_(s.table_scope()) {}

  WC_HD stadium_attempt insert() {
    const ticket_board& b = s_.board;
    // The planted bug: the pair goes into the bucket before the ticket is
    // reserved, over whatever pair holds it.
    if (s_.planted(stadium_mutant::pair_before_reserve)) s_.table.store_pair(t_, j_.pos, key_, uint64_t(op_.value), s_.table_order(), ts_);
    bool got = false;
    if (s_.fixed(stadium_fix::reserve_by_cas)) {
      // Fix S1: reserve an available ticket (never used, or a tombstone) by
      // a compare-and-swap of this slot alone, to "an insert holds it".
      uint32_t seen = t_.load(at_.word, core::order::relaxed, core::scope::gpu);
      const ticket_state st = b.state(b.slot_of(seen, at_));
      if (st == ticket_state::never_used || st == ticket_state::tombstone) {
        const slot_swap w = swap_slot(t_, b, at_, seen, b.slot_of(seen, at_), b.inserting_blank(), reserve_order(), freeing_scope());
        if (w.gave_up) return {stadium_attempt::gave_up};
        got = w.swapped;
      }
    } else {
      // Figure 7, with the access bit "unset alongside the availability bit"
      // (section III-B): an atomic AND of both bits. Finding S1: the AND
      // also clears the access bit of a ticket that is taken, so a failed
      // reservation leaves a live pair looking half-written for good:
      // retrievals that ignore it miss the pair, those that wait hang.
      const uint32_t old = t_.fetch_and(at_.word, ~((kAvailable | kAccess) << at_.shift), reserve_order(), freeing_scope());
      got = (b.slot_of(old, at_) & kAvailable) != 0;
      // A tombstone's info bits are not all ones: give Figure 8's AND its
      // ones back (part of fix S2, whose tombstones these are; as printed
      // nothing is given back).
      if (got && s_.fixed(stadium_fix::tombstones) && b.info_bits() && b.info_field(b.slot_of(old, at_)) != b.info_field(b.never_used()))
        t_.fetch_or(at_.word, (b.never_used() & ~(kAvailable | kAccess)) << at_.shift, core::order::relaxed, core::scope::gpu);
    }
    if (!got) {
      advance();
      if (j_.tries < s_.buckets) return {stadium_attempt::again};
      // Figure 6, line 8.
      t_.fail("stadium: the table is full: an insert found no available ticket in N probes", at_.word);
      return {stadium_attempt::failed};
    }
    // Figure 8: the info bits, by an atomic AND of a word of ones holding them.
    if (b.info_bits()) {
      const uint32_t zeros = (~info_ & ((1u << b.info_bits()) - 1)) << (at_.shift + kInfoShift);
      ticket_rmw(~zeros, /*and_not_or=*/true, core::order::relaxed);
    }
    if (!s_.planted(stadium_mutant::pair_before_reserve)) s_.table.store_pair(t_, j_.pos, key_, uint64_t(op_.value), s_.table_order(), ts_);
    // The barrier before the access bit: __threadfence() for a table in GPU
    // memory, __threadfence_system() for one in host memory.
    const bool no_fence = s_.host_table ? s_.planted(stadium_mutant::missing_fence_host_table)
                                        : s_.planted(stadium_mutant::missing_fence_device_table);
    // The planted bug: a fence at gpu scope, which publishes the pair to
    // the GPU's threads but not to a CPU thread reading the host table.
    const bool gpu_fence = s_.host_table && s_.planted(stadium_mutant::gpu_fence_for_host_table);
    if (!no_fence) t_.fence(core::order::seq_cst, gpu_fence ? core::scope::gpu : ts_);
    ticket_rmw(kAccess << at_.shift, /*and_not_or=*/false, core::order::relaxed);
    return {stadium_attempt::done, ResultKind::None, 0};
  }

  WC_HD stadium_attempt lookup() {
    const ticket_board& b = s_.board;
    const bool erase = op_.kind == OpKind::Erase;
    // Figure 10, line 4: a plain load as printed. Fix S6: an acquire, so
    // that the table loads below see the pair whose access bit it read.
    uint32_t seen = s_.fixed(stadium_fix::acquire_ticket_load) ? t_.load(at_.word, core::order::acquire, ts_)
                                                                : t_.load(at_.word, core::order::weak, core::scope::gpu);
    const uint32_t slot = b.slot_of(seen, at_);
    if (j_.found) return take_found(seen, slot);
    bool half_written = false;
    switch (b.state(slot)) {
      case ticket_state::never_used:
      case ticket_state::tombstone: {
        // Figure 10, line 8: an available ticket ends a retrieval. Deletes
        // go on ("deletion includes more iterations after rejecting a
        // position", section III-B), and so do retrievals when deletions
        // mix with them ("the retrievals require further iterations after
        // rejecting a bucket"): a delete makes a ticket available in the
        // middle of other keys' chains, and Figure 10 alone would stop
        // there short of a pair inserted past it. Those further iterations
        // go to N probes (Figure 9, line 8). Fix S2: a delete leaves a
        // tombstone, and a lookup stops only at a ticket never used (a
        // pair's insert took the first available ticket of its chain, and
        // no ticket becomes never used again). 1-bit tickets have no info
        // bit to mark a tombstone: there a lookup goes on past every
        // available ticket.
        const bool stop = s_.fixed(stadium_fix::tombstones)
                              ? b.info_bits() > 0 && b.state(slot) == ticket_state::never_used
                              : !erase && !s_.deletes;
        return stop ? absent() : next();
      }
      case ticket_state::inserting:
        // The planted bug: a ticket whose insert is still writing is read
        // like a live one, its pair half written.
        half_written = !erase && s_.planted(stadium_mutant::torn_wide_pair);
        if (half_written) break;
        return s_.access == stadium_access::wait ? wait() : next();
      case ticket_state::claimed: return wait();  // a live pair someone is reading or deleting
      case ticket_state::live: break;
    }
    // Second level of certitude: the info bits (Figure 10, lines 10-11).
    if (b.info_field(slot) != info_) return next();
    // Third: the bucket's key (line 12).
    if (s_.table.load_key(t_, j_.pos, s_.table_order(), ts_) != key_) return next();
    const bool claim =
        !half_written && (erase ? s_.fixed(stadium_fix::claim_before_free) : s_.fixed(stadium_fix::claim_to_read));
    if (claim) {
      j_.found = 1;
      return take_found(seen, slot);
    }
    // As printed: the pair is read, and a delete frees the ticket, with
    // nothing held. Finding S3: a delete that found k frees the ticket with
    // no check that it still holds k: two deletes of one pair both succeed,
    // and one that ran late frees the bucket of a pair inserted there
    // since. Finding S4: a retrieval that matched the key reads the value
    // while the bucket is freed and taken by another pair: a value never
    // paired with k, or a torn one.
    const int64_t value = s_.table.load_value(t_, j_.pos, s_.table_order(), ts_);
    if (!erase) return {stadium_attempt::done, ResultKind::Value, value};
    // "atomically setting the corresponding ticket bits"
    if (!s_.fixed(stadium_fix::tombstones)) {
      t_.fetch_or(at_.word, b.slot_mask() << at_.shift, free_order(), freeing_scope());
    } else if (!set_slot(t_, b, at_, b.tombstone(), free_order(), freeing_scope())) {
      return {stadium_attempt::gave_up};
    }
    return {stadium_attempt::done, ResultKind::Value, value};
  }

 private:
  // Fixes S3 (deletes) and S4 (retrievals): k's pair was read at this
  // bucket; hold it (a claim: a CAS from the live ticket to "claimed",
  // waited on by others and never reserved) before reading its value or
  // freeing it, waiting while someone else holds it. Under the claim the
  // key is read again: the bucket may have changed hands since.
  WC_HD stadium_attempt take_found(uint32_t seen, uint32_t slot) {
    const ticket_board& b = s_.board;
    const ticket_state st = b.state(slot);
    if (st == ticket_state::claimed || st == ticket_state::inserting) return wait();
    if (st != ticket_state::live || b.info_field(slot) != info_) {  // freed meanwhile: that pair is gone
      j_.found = 0;
      return next();
    }
    const slot_swap w = swap_slot(t_, b, at_, seen, slot, b.claimed(info_), core::order::acquire, ts_);
    if (w.gave_up) return {stadium_attempt::gave_up};
    if (!w.swapped) return wait();
    j_.found = 0;
    const bool erase = op_.kind == OpKind::Erase;
    const bool recheck = !(erase && s_.planted(stadium_mutant::delete_without_recheck));
    if (recheck && s_.table.load_key(t_, j_.pos, s_.table_order(), ts_) != key_) {
      if (!release_claim(b.live(info_))) return {stadium_attempt::gave_up};
      return next();
    }
    const int64_t value = s_.table.load_value(t_, j_.pos, s_.table_order(), ts_);
    const uint32_t after = !erase ? b.live(info_) : s_.fixed(stadium_fix::tombstones) ? b.tombstone() : b.never_used();
    if (!release_claim(after)) return {stadium_attempt::gave_up};
    return {stadium_attempt::done, ResultKind::Value, value};
  }
  // Fix S7: a reservation acquires and a free releases, at the table's
  // scope; as printed (atomicAnd, atomicOr) both are relaxed at GPU scope.
  WC_HD core::order reserve_order() const {
    return s_.fixed(stadium_fix::release_free_acquire_reserve) ? core::order::acquire : core::order::relaxed;
  }
  WC_HD core::order free_order() const {
    return s_.fixed(stadium_fix::release_free_acquire_reserve) ? core::order::release : core::order::relaxed;
  }
  WC_HD core::scope freeing_scope() const { return s_.fixed(stadium_fix::release_free_acquire_reserve) ? ts_ : core::scope::gpu; }
  // Rehash (Figure 5): the next bucket of the key's chain.
  WC_HD void advance() {
    j_.pos = s_.table.next_bucket(j_.pos, key_, s_.buckets);
    ++j_.tries;
    j_.waits = 0;
  }
  WC_HD stadium_attempt absent() const { return {stadium_attempt::done, ResultKind::Absent, 0}; }
  // Figure 9, lines 7-9: after N buckets the table was fully traversed.
  WC_HD stadium_attempt next() {
    advance();
    return j_.tries < s_.buckets ? stadium_attempt{stadium_attempt::again} : absent();
  }
  // Stay at this bucket: one iteration of a bounded spin on its ticket.
  WC_HD stadium_attempt wait() {
    return t_.spin(at_.word, ++j_.waits) ? stadium_attempt{stadium_attempt::again} : stadium_attempt{stadium_attempt::gave_up};
  }
  // A claimed slot handed back (live again, or freed); only neighbours
  // change the word meanwhile.
  WC_HD bool release_claim(uint32_t to) {
    uint32_t seen = t_.load(at_.word, core::order::relaxed, core::scope::gpu);
    const slot_swap w = swap_slot(t_, s_.board, at_, seen, s_.board.claimed(info_), to, core::order::release, ts_);
    if (!w.swapped && !w.gave_up) t_.fail("stadium: a claimed ticket changed under its claim", at_.word);
    return w.swapped;
  }
  // An atomic AND (or OR) of this ticket's word; the planted bug makes it a
  // load and a store, which puts back a neighbour's bits as they were.
  WC_HD void ticket_rmw(uint32_t bits, bool and_not_or, core::order o) {
    if (s_.planted(stadium_mutant::plain_ticket_stores)) {
      const uint32_t w = t_.load(at_.word, core::order::relaxed, core::scope::gpu);
      t_.store(at_.word, and_not_or ? w & bits : w | bits, o, core::scope::gpu);
    } else if (and_not_or) {
      t_.fetch_and(at_.word, bits, o, core::scope::gpu);
    } else {
      t_.fetch_or(at_.word, bits, o, core::scope::gpu);
    }
  }

  Team& t_;
  const stadium_hash& s_;
  const core::workload_op& op_;
  stadium_job& j_;
  const uint64_t key_;
  const uint32_t info_;
  const ticket_ref at_;
  const core::scope ts_;
};

}  // namespace stadium_detail

template <class Team>
WC_HD stadium_attempt stadium_hash::attempt(Team& t, const core::workload_op& op, stadium_job& j) const {
  stadium_detail::attempt_of<Team> a(t, *this, op, j);
  switch (op.kind) {
    case OpKind::Insert: return a.insert();
    case OpKind::Find:
    case OpKind::Erase: return a.lookup();
    default:
      t.fail("stadium: unsupported operation (insert, find, erase)", nullptr);
      return {stadium_attempt::failed};
  }
}

}  // namespace warpcheck::structures
