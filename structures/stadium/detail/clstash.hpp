// clStash, Stash with collaborative lanes (paper, section III-C, Figure
// 12): the warp is the team. Every lane takes a fresh job; a job that an
// attempt does not finish is kept in the warp's queue of 32 entries (shared
// memory on the GPU), and lanes whose jobs finished take queued ones while
// there are more unfinished jobs than the queue can hold, so that every
// lane has work in every iteration. Addresses in the queue come from
// ballots and population counts (an inclusive scan over the lanes).
//
// The paper batches insertions this way; here every operation is a job of
// probing attempts (insert, find, erase), so one kernel mixes them. A job
// fetched by a lane is recorded in the warp's stream, and ended by
// whichever lane finishes it.
//
// The queue is a ring of 32 entries (an index is taken modulo 32): the
// printed push (line 25) and the planted queue_wrap_loses_job overwrite
// queued jobs there instead of leaving the warp's memory.
//
// Lockstep: the printed code is pre-Volta. Its collectives (__ballot,
// __popc, the shuffle of line 12) are ours with the full mask, and the
// queue is volatile shared memory ("shared memory declarations are
// volatile"): relaxed accesses at block scope. It orders a lane's pops
// before another lane's pushes over the same entries, and pushes before
// the next pops, by lockstep alone; fix S9 (syncwarp_around_queue) adds a
// __syncwarp at both places (a ballot orders no memory).
#pragma once
#include <cstdint>

#include "structures/core/recorder/history_log.hpp"
#include "structures/stadium/stadium_hash.hpp"

namespace warpcheck::structures {

namespace stadium_detail {

// The warp's queue: 32 jobs of stadium_job::kWords words, in team scratch
// memory (shared memory on the GPU; only this warp touches it). Volatile as
// printed: relaxed accesses at block scope.
template <class Team>
class job_queue {
 public:
  WC_HD job_queue(Team& t, uint32_t* words, uint32_t jobs) : t_(t), words_(words), jobs_(jobs) {}
  WC_HD void put(uint32_t index, const stadium_job& j) {
    uint32_t* e = entry(index);
    const uint32_t v[stadium_job::kWords] = {j.op, j.pos, j.tries, j.waits, j.slot, j.found};
    for (uint32_t i = 0; i < stadium_job::kWords; ++i) t_.store(e + i, v[i], core::order::relaxed, core::scope::cta);
  }
  // Entry i holds no job (every lane clears its own).
  WC_HD void clear(uint32_t i) {
    for (uint32_t w = 0; w < stadium_job::kWords; ++w) t_.store(entry(i) + w, ~0u, core::order::relaxed, core::scope::cta);
  }
  // A job as stored; false (the run's fault recorded) when the entry holds none.
  WC_HD bool take(uint32_t index, stadium_job& j) {
    const uint32_t* e = entry(index);
    uint32_t v[stadium_job::kWords];
    for (uint32_t i = 0; i < stadium_job::kWords; ++i) v[i] = t_.load(e + i, core::order::relaxed, core::scope::cta);
    j = {v[0], v[1], v[2], v[3], v[4], v[5]};
    if (j.op < jobs_) return true;
    t_.fail("stadium: clStash took a queue entry that holds no job", e);
    return false;
  }

 private:
  WC_HD uint32_t* entry(uint32_t index) const { return words_ + (index & 31) * stadium_job::kWords; }
  Team& t_;
  uint32_t* words_;
  uint32_t jobs_;
};

}  // namespace stadium_detail

// The warp's operations: `per_lane` a lane, lane-major; round r gives lane
// L the operation L * per_lane + r. Rounds before `first_round` are not
// run (hybrid: Stash ran them). `queue`: 32 * stadium_job::kWords words.
template <class Team>
WC_HD bool run_clstash_ops(Team& t, const stadium_hash& s, const core::workload_op* ops, uint32_t per_lane, uint32_t first_round,
                           uint32_t* queue, const history_log* log, uint32_t stream) {
  const uint32_t lane = t.lane(), warp = t.size();
  const uint32_t upto = lane == 31 ? ~0u : (2u << lane) - 1;  // this lane and those below: an inclusive scan's mask
  stadium_detail::job_queue<Team> q(t, queue, warp * per_lane);
  stadium_job j;
  bool held = false, ok = true;
  uint32_t accumulated = 0;  // jobs queued (Figure 12, line 1)
  // Instrumentation, not the paper's: entries hold no job until pushed, so
  // that a pop of an empty entry is a fault (a lost job), not a stale job.
  q.clear(lane);
  t.sync();

  // One attempt of the lane's job; true when the lane is free afterwards
  // (Figure 12's gotSeat, for any operation): its job is done, or it had none.
  auto work = [&]() {
    if (!held) return true;
    const core::workload_op& op = ops[j.op];
    const stadium_attempt a = s.attempt(t, op, j);
    if (a.status == stadium_attempt::again) return false;
    held = false;
    if (a.status != stadium_attempt::done) ok = false;  // the fault is recorded; the warp stops after this round
    else if (log) log->end(t, stream, j.slot, a.kind, a.value);
    return true;
  };
  auto take = [&](uint32_t index) {
    held = q.take(index, j);
    ok = ok && held;
    if (held) t.note_operation(ops[j.op].kind, ops[j.op].key);
  };

  for (uint32_t round = first_round; round < per_lane; ++round) {  // line 2
    // Line 3: every lane fetches a fresh job; the warp's new records in one reservation.
    const uint32_t index = lane * per_lane + round;
    held = ops[index].active;
    const uint32_t fetching = t.ballot(held);
    uint32_t first = 0;
    if (log && fetching) {
      if (lane == uint32_t(core::lowest_lane(fetching))) first = log->reserve_slots(stream, uint32_t(core::popcount(fetching)));
      first = t.shfl(first, uint32_t(core::lowest_lane(fetching)));
    }
    if (held) {
      const core::workload_op& op = ops[index];
      t.note_operation(op.kind, op.key);
      j = s.start(op, index);  // line 4
      j.slot = log ? log->begin_at(t, stream, first + uint32_t(core::popcount(fetching & upto)) - 1, op.kind, op.key, op.value,
                                   0, index)
                   : history_log::kNoSlot;
    }
    bool free = work();  // lines 5-8
    if (t.any(!ok)) return false;
    uint32_t unsuccessful = t.count(!free);  // line 9
    // Line 10: while the queue cannot take the unfinished jobs. The planted
    // bug lets one more in: a 33rd entry wraps onto the oldest job.
    const uint32_t room = s.planted(stadium_mutant::queue_wrap_loses_job) ? warp + 1 : warp;
    while (unsuccessful + accumulated > room) {
      const uint32_t succeeded = t.ballot(free);
      const uint32_t scan = uint32_t(core::popcount(succeeded & upto));  // line 11
      const uint32_t n_success = t.shfl(scan, warp - 1);                 // line 12
      if (free) take(accumulated - scan);                                 // lines 13-15
      accumulated -= n_success;                                           // line 16
      free = work();                                                      // lines 17-21
      if (t.any(!ok)) return false;
      unsuccessful = t.count(!free);  // line 22
    }
    // Lines 23-26: the unfinished jobs into the queue. Finding S5: the
    // printed address, accumulated - threadScan - 1, lies below the top
    // (accumulated - 2 for the first lane): it overwrites queued jobs, and
    // when the queue is nearly empty it falls below the queue's start.
    // Fix S5: accumulated + threadScan - 1, the entries above the top.
    // Fix S9: the pops above are done before any lane writes an entry (a
    // ballot orders no memory); as printed, lockstep alone orders them.
    if (s.fixed(stadium_fix::syncwarp_around_queue)) t.sync();
    const uint32_t scan = uint32_t(core::popcount(t.ballot(!free) & upto));  // line 24
    if (!free) {
      const uint32_t address = s.fixed(stadium_fix::push_above_queue) ? accumulated + scan - 1 : accumulated - scan - 1;
      q.put(address, j);  // line 26
      held = false;
    }
    accumulated += unsuccessful;  // line 27
    if (s.fixed(stadium_fix::syncwarp_around_queue)) t.sync();  // fix S9: the pushes are visible to the lanes that pop them
  }
  // "Our implementation contains code to take care of what remains in the
  // shared memory after the outmost loop terminates": free lanes take
  // queued jobs (from the top), lanes keep theirs, until none is left.
  for (;;) {
    const uint32_t idle = t.ballot(!held);
    const uint32_t rank = uint32_t(core::popcount(idle & upto));
    const uint32_t takers = uint32_t(core::popcount(idle)) < accumulated ? uint32_t(core::popcount(idle)) : accumulated;
    if (!held && rank <= takers) take(accumulated - rank);
    accumulated -= takers;
    if (t.any(!ok)) return false;
    if (!t.any(held)) return true;
    work();
    if (t.any(!ok)) return false;
  }
}

}  // namespace warpcheck::structures
