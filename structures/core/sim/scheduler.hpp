// The seam between the simulator's engine and its scheduling strategies.
// The engine runs lanes and owns memory, delays, deadlock reports; a
// Scheduler only chooses: at each step, which runnable lane goes next, and,
// through the SchedulerHost, which team sits out or which lane waits at its
// operation's gate. It hears of the run through the events it declares
// (SchedulerInfo::events, schedulers/registry.hpp); the engine names no
// strategy. The strategies are one file each in schedulers/.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/base/splitmix.hpp"
#include "models/op.hpp"
#include "structures/core/memory_order.hpp"
#include "structures/core/sim/schedule.hpp"

namespace warpcheck::sim {

struct RunReport;

// The runnable lanes, with O(1) insertion and removal.
class RunQueue {
 public:
  explicit RunQueue(uint32_t lanes) : where_(lanes, kAbsent) {}
  void add(uint32_t lane) {
    if (where_[lane] != kAbsent) return;
    where_[lane] = static_cast<uint32_t>(lanes_.size());
    lanes_.push_back(lane);
  }
  void remove(uint32_t lane) {
    const uint32_t at = where_[lane];
    if (at == kAbsent) return;
    where_[lanes_.back()] = at;
    lanes_[at] = lanes_.back();
    lanes_.pop_back();
    where_[lane] = kAbsent;
  }
  bool contains(uint32_t lane) const { return where_[lane] != kAbsent; }
  uint32_t capacity() const { return static_cast<uint32_t>(where_.size()); }
  bool empty() const { return lanes_.empty(); }
  size_t size() const { return lanes_.size(); }
  uint32_t operator[](size_t i) const { return lanes_[i]; }

 private:
  static constexpr uint32_t kAbsent = UINT32_MAX;
  std::vector<uint32_t> lanes_;
  std::vector<uint32_t> where_;
};

// splitmix64: small, fast, and the same sequence everywhere.
class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed) {}
  uint64_t next() { return detail::splitmix64(s_ += detail::kGoldenGamma); }
  // Uniform in [0, n), n > 0 (Lemire's multiply-shift; bias below 2^-32 for small n).
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(((next() >> 32) * n) >> 32); }
  // True with probability `chance`.
  bool draw(double chance) { return double(next() >> 11) * 0x1.0p-53 < chance; }

 private:
  uint64_t s_;
};

// A lane's scheduling point: what it does next (before) or did (after).
struct Access {
  core::access kind = core::access::load;  // load, store, rmw, fence, collective or spin
  const void* address = nullptr;           // the word (a spin: the word it waits on); null: none
  uint32_t bytes = 0;                      // after an access: its width
  bool changed = false;                    // after an access: it wrote memory (a store, a read-modify-write that changed its word)
  core::order order = core::order::relaxed;
  core::scope scope = core::scope::gpu;
  bool writes() const { return kind == core::access::store || kind == core::access::rmw; }
};

// An operation at its begin or end, as the recorder logs it.
struct OperationPoint {
  const void* log = nullptr;
  uint32_t stream = 0, slot = 0, job = 0;
  OpKind kind = OpKind::Insert;
  ResultKind result_kind = ResultKind::None;  // at its end
  int64_t result = 0;
};

// What the engine offers a scheduler: what it knows, and what it lets a
// scheduler do besides picking.
class SchedulerHost {
 public:
  virtual uint32_t teams() const = 0;
  virtual uint32_t lanes_per_team() const = 0;
  uint32_t team_of(uint32_t lane) const { return lane / lanes_per_team(); }
  virtual uint64_t step() const = 0;
  virtual const RunQueue& runnable() const = 0;
  // The lane's next scheduling point, as last announced.
  virtual Access next(uint32_t lane) const = 0;
  // Neither blocked at a collective, gated nor done (a team sitting out counts as waiting).
  virtual bool waiting(uint32_t lane) const = 0;
  // The word its current spin loop waits on (null: not spinning).
  virtual const void* spinning_on(uint32_t lane) const = 0;
  virtual std::optional<uint32_t> lock_owner(const void* lock) const = 0;
  virtual std::string team_name(uint32_t team) const = 0;  // "warp 3", for reports
  // A pool unit of 16 bytes or more, else the word's 128-byte line: what a structure reads as one.
  virtual uintptr_t object_of(const void* address) const = 0;
  // Teams that sit out (the engine's delays or a scheduler's).
  virtual bool sits_out(uint32_t team) const = 0;
  virtual bool any_sits_out() const = 0;

  // ---- actions ----
  // The team leaves the run queue for at most `steps` steps.
  virtual void sit_out(uint32_t team, uint64_t steps) = 0;
  // Its sit-out ends: it runs again from the next step (wake_due: now).
  virtual void end_sit_out(uint32_t team) = 0;
  virtual void wake_due() = 0;
  // A lane held at its operation's gate (Scheduler::may_begin said no) goes on.
  virtual void open_gate(uint32_t lane) = 0;

 protected:
  ~SchedulerHost() = default;
};

class Scheduler {
 public:
  virtual ~Scheduler() = default;
  // The lane to run at `step`; UINT32_MAX when the strategy cannot go on
  // (a replayed schedule that no longer fits the program), with why().
  virtual uint32_t pick(const RunQueue& runnable, uint64_t step) = 0;
  virtual std::string why() const { return {}; }

  // ---- events, each sent only to a scheduler that declares it (SchedulerEvents) ----
  // runnable: the run queue changed.
  virtual void on_runnable(uint32_t /*lane*/) {}
  virtual void on_blocked(uint32_t /*lane*/) {}
  // points: a lane's next scheduling point, before it happens (an access, a spin iteration, a collective).
  virtual void next(uint32_t /*lane*/, const Access& /*a*/) {}
  // steps: the lane picked at this step has run up to its next point (or blocked, or ended).
  virtual void stepped(uint32_t /*lane*/) {}
  // accesses: a load, store or read-modify-write happened (with its width,
  // and whether it changed memory), a team met at a collective, a lock
  // changed hands.
  virtual void accessed(uint32_t /*lane*/, const Access& /*a*/) {}
  virtual void met(uint32_t /*team*/) {}
  virtual void lock_acquired(uint32_t /*lane*/, const void* /*lock*/) {}
  virtual void lock_released(uint32_t /*lane*/, const void* /*lock*/) {}
  // A team's sit-out ended (its lanes are runnable again).
  virtual void sit_out_ended(uint32_t /*team*/) {}
  // Nothing can run: end one of this scheduler's own sit-outs, before the
  // engine's delays end (true: it did).
  virtual bool end_a_sit_out() { return false; }
  // operations: an operation's begin is a point of its own; false keeps
  // the lane at its gate until SchedulerHost::open_gate.
  virtual bool may_begin(uint32_t /*lane*/, const OperationPoint& /*op*/) { return true; }
  virtual void began(uint32_t /*lane*/) {}
  virtual void ended(uint32_t /*lane*/, const OperationPoint& /*op*/) {}
  // Nothing can run and no team sits out: open a gate (true: it did).
  virtual bool open_a_gate() { return false; }
  // For the deadlock report: why a gated lane waits ("waiting to begin ...").
  virtual std::string gate_of(uint32_t /*lane*/) const { return {}; }
  // Harness notes before the run (guided runs): a recording's stream
  // base, and the records a stream held before the run.
  virtual void streams_base(const void* /*log*/, uint32_t /*base*/) {}
  virtual void recorded_before(const void* /*log*/, uint32_t /*stream*/, uint32_t /*records*/) {}

  // The run ended with every lane done after `steps`: empty, or why the
  // strategy did not end with it (a replayed schedule longer than the run).
  virtual std::string at_end(uint64_t /*steps*/) const { return {}; }
  // Adds what the strategy has to say to the run's report.
  virtual void report(RunReport& /*r*/) const {}
};

}  // namespace warpcheck::sim
