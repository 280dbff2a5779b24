// Bounded spinning and a lock that records its owner, for any Team.
#pragma once
#include <cstdint>

#include "structures/core/team.hpp"

namespace warpcheck::core {

// One spin loop: each again() is an iteration. Past the back-end's bound it
// returns false (the back-end has recorded the fault) and the loop must give
// up. In the simulator it is a yield point as well.
template <class Team>
class bounded_spin {
 public:
  WC_HD bounded_spin(Team& t, const void* waiting_on) : t_(t), on_(waiting_on) {}
  WC_HD WC_FORCE_INLINE bool again() { return t_.spin(on_, ++iterations_); }
  WC_HD uint64_t iterations() const { return iterations_; }
  // A loop that moves on (a lateral walk) waits on another word now: the
  // reports name the one it waits on, not the one it started from.
  WC_HD void now_on(const void* waiting_on) { on_ = waiting_on; }

 private:
  Team& t_;
  const void* on_;
  uint64_t iterations_ = 0;
};

// A spin lock whose word holds its owner (team id + 1; 0 is free), so that a
// stuck run can name who holds what. Called by one lane of the team.
template <class Team>
WC_HD WC_FORCE_INLINE bool lock_owned(Team& t, uint32_t* word) {
  bounded_spin<Team> spin(t, word);
  const uint32_t me = t.team_id() + 1;
  for (;;) {
    // Test before test-and-set: spin on loads, not on read-modify-writes.
    if (t.load(word, order::relaxed, scope::gpu) == 0 && t.cas(word, 0u, me, order::acquire, scope::gpu) == 0) break;
    if (!spin.again()) return false;
  }
  t.lock_acquired(word);
  return true;
}

template <class Team>
WC_HD WC_FORCE_INLINE void unlock_owned(Team& t, uint32_t* word) {
  t.lock_released(word);
  t.store(word, 0u, order::release, scope::gpu);
}

}  // namespace warpcheck::core
