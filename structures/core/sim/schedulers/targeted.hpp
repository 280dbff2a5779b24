// The targeted scheduler (targeted.cpp): uniform random picks, plus
// preemptions aimed where torn reads and lock hand-offs happen. Declared
// here because the guided scheduler (guided.cpp) is this one in the order
// of a recorded history.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "structures/core/sim/object_read.hpp"
#include "structures/core/sim/scheduler.hpp"

namespace warpcheck::sim {

struct SimConfig;
struct SchedulerOption;

// Its options (--preempt-*), which the guided scheduler shares.
const std::vector<SchedulerOption>& targeted_options();

class TargetedScheduler : public Scheduler {
 public:
  TargetedScheduler(const SimConfig& c, SchedulerHost& host);
  uint32_t pick(const RunQueue& runnable, uint64_t step) override;
  void next(uint32_t lane, const Access& a) override;
  void stepped(uint32_t lane) override;
  void accessed(uint32_t lane, const Access& a) override;
  void met(uint32_t team) override { reading_[team].clear(); }  // the team's next loads are a read of their own
  void lock_acquired(uint32_t lane, const void* lock) override;
  void lock_released(uint32_t lane, const void* lock) override;
  void sit_out_ended(uint32_t team) override;
  bool end_a_sit_out() override;

 protected:
  // Guided: only inside operations that overlap another team's in its history.
  virtual bool may_preempt(uint32_t /*team*/) const { return true; }
  // Guided: lanes wait at gates while no team sits out; force_a_gate opens one.
  virtual bool at_gates() const { return false; }
  virtual void force_a_gate() {}
  SchedulerHost& host_;

 private:
  enum class Until : uint8_t { torn, writes };  // what a preemption waits for
  struct Preemption {
    uintptr_t object = 0;  // the team sits out until other teams write this (0: not preempted)
    Until until = Until::torn;
    bool stale = false;        // a word its read took has been written since
    uint32_t writes_left = 0;  // tearing writes (Until::torn) or writes to wait for
  };
  void maybe_preempt(uint32_t lane, uintptr_t object, Until until, double chance);
  void wrote(uint32_t lane, const void* address, uint32_t bytes);
  uint32_t conflicting_writer();
  bool committed(uint32_t team) const;
  void end_a_preemption();
  bool only_spinners_ran(uint32_t picked, uint64_t picks_a_lane);

  std::unique_ptr<Scheduler> random_;  // the picks, when no preemption steers them
  double preempt_reads_, preempt_handoffs_;
  uint32_t preempt_writes_;
  uint64_t preempt_steps_;
  std::vector<uintptr_t> object_;        // per lane: the object of its next access
  std::vector<const void*> releasing_;   // per lane: a lock it released whose releasing write is still to come
  std::vector<Preemption> preempted_;    // per team
  std::vector<uint32_t> preempted_teams_;  // those sitting out, oldest first
  std::vector<ObjectRead> reading_;        // per team: its current read
  RunQueue pending_writers_;               // lanes whose next access is a write
  std::vector<uint32_t> choices_;          // scratch for the draws among lanes or teams
  Rng rng_;                                // the preemptions' own random stream
  uint64_t spinner_picks_ = 0;             // consecutive picks of spinning lanes
};

}  // namespace warpcheck::sim
