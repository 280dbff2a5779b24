// The deterministic simulator: the structures' own code, compiled by the
// host compiler, with every lane of every team on a lightweight context
// (Boost.Context) and a seeded scheduler choosing, at every shared access,
// atomic, fence, collective and spin iteration, which lane goes next.
// Lanes of a team meet at collectives (SIMT). One seed gives one
// interleaving, bit for bit; the picks are recorded as a Schedule that can
// be printed and replayed.
//
// Memory is sequentially consistent by default: every access happens
// atomically at its step and a load sees the newest store. In the relaxed
// mode (memory_model = relaxed, relaxed_memory.hpp) a load may see an older
// store, as far as the accesses' orders and scopes allow under PTX.
//
// Nothing runs unbounded: a spin loop past `spin_bound` iterations stops the
// run as a suspected deadlock or livelock (with every blocked team, what it
// waits on, lock owners and the wait-for cycle), and so does a run past
// `max_steps`, or teams stuck at a collective that some lane never reaches.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "structures/core/memory_order.hpp"
#include "structures/core/sim/guidance.hpp"
#include "structures/core/sim/relaxed_memory.hpp"
#include "structures/core/sim/schedule.hpp"
#include "structures/core/sim/sim_config.hpp"
#include "structures/core/sim/scheduler.hpp"
#include "structures/core/sim/shadow_memory.hpp"

namespace warpcheck::sim {

// What a team of `lanes` lanes is called in reports: a one-lane team is a
// thread; else `declared` ("warp", "block"), or where none is declared, by
// its lanes (32 a warp, more a block, else "team").
inline std::string team_word_for(uint32_t lanes, const std::string& declared = {}) {
  if (lanes == 1) return "thread";
  if (!declared.empty()) return declared;
  return lanes == 32 ? "warp" : lanes > 32 ? "block" : "team";
}

// A lane in reports, on any back-end: "warp 3 lane 7", "block 2 thread 5",
// "thread 9" (a one-lane team is its thread).
inline std::string lane_place(const std::string& team_word, uint32_t team, uint32_t lane) {
  const std::string t = team_word + " " + std::to_string(team);
  if (team_word == "thread") return t;
  return t + (team_word == "block" ? " thread " : " lane ") + std::to_string(lane);
}

// Throws std::invalid_argument for an impossible configuration.
void validate(const SimConfig& c);

enum class Outcome : uint8_t {
  Completed,
  SpinBound,        // a spin loop hit its bound: suspected deadlock or livelock
  Stuck,            // no lane can run: a collective some lane never reaches
  Divergence,       // lanes of a team met at different collectives
  ShadowViolation,  // an access broke a pool unit's state
  StepLimit,
  LaneError,        // a lane threw (a structure's own check failed)
  ReplayMismatch,
  ZombieTraversal,  // a team acted on what it read from a unit already retired (a zombie) when it read it
};
std::string_view outcome_name(Outcome o);

enum class Collective : uint8_t { Sync, Ballot, Shfl, Any, All, Count, Coalesce };

struct RunReport {
  Outcome outcome = Outcome::Completed;
  std::string message;  // one line
  std::string details;  // the blocked teams, the wait-for cycle, the violation
  uint64_t steps = 0;
  Schedule schedule;
  std::vector<uint32_t> wait_cycle;  // teams, when stuck teams wait on each other in a cycle
  std::optional<ShadowViolation> violation;
  uint32_t team = 0, lane = 0;  // the lane that faulted, when one did
  std::optional<GuidanceReport> guidance;  // a guided run: how closely it followed its guide
  bool ok() const { return outcome == Outcome::Completed; }
};

class sim_team;

class Simulator : private SchedulerHost {
 public:
  explicit Simulator(SimConfig config);
  ~Simulator();
  Simulator(const Simulator&) = delete;
  Simulator& operator=(const Simulator&) = delete;

  // Runs `body` on every lane until all return or a fault stops the run.
  // One run per Simulator.
  RunReport run(const std::function<void(sim_team&)>& body);

  ShadowMemory& shadow() { return shadow_; }
  const SimConfig& config() const { return config_; }

  // Names an address for reports: "pool[unit]+offset" inside a shadow pool.
  std::string describe(const void* address) const;
  // Names a team and one of its lanes in the GPU's words for the shape run:
  // "warp 3" and "warp 3 lane 7" (32 lanes), "block 1 thread 70" (more),
  // "thread 9" (one lane a team), else "team 2 lane 5".
  std::string team_word() const;
  std::string team_name(uint32_t team) const override;
  std::string lane_name(uint32_t lane) const;  // `lane`: the simulator's index of every lane

  // ---- called by sim_team, on the lane that runs now ----
  void access(uint32_t lane, core::access a, const void* address, core::order o = core::order::relaxed,
              core::scope s = core::scope::gpu);
  uint64_t collective(uint32_t lane, Collective op, uint64_t value, uint32_t src);
  bool spin(uint32_t lane, const void* waiting_on, uint64_t iteration);
  void lock_acquired(uint32_t lane, const void* lock);
  void lock_released(uint32_t lane, const void* lock);
  // A structure's own check failed (bucket full, bad input): stops the run.
  [[noreturn]] void fail(uint32_t lane, const char* what, const void* address);
  uint64_t step() const override { return step_; }

  // A team's load of one word a lane, as the GPU coalesces it: the lanes
  // whose words share a 128-byte segment load at one step (atomically),
  // segments at different steps, chosen by the scheduler (and, with delays,
  // perhaps far apart). Every lane of the team takes part; a null address
  // loads nothing.
  uint64_t coalesced_load(uint32_t lane, const void* address, size_t bytes, core::order o, core::scope s);
  // A read-modify-write that changed its word: checked as a store against
  // the shadow state (one that changes nothing is a read).
  void changed_by_rmw(uint32_t lane, const void* address, size_t bytes);
  // The memory accesses themselves, after access() (the step they happen
  // at): the value a load returns, a store, a read-modify-write that read
  // `before` and leaves `after` (memory is written by the caller), a fence.
  uint64_t read(uint32_t lane, const void* address, size_t bytes, core::order o, core::scope s);
  void write(uint32_t lane, void* address, size_t bytes, uint64_t value, core::order o, core::scope s);
  void read_modify_write(uint32_t lane, void* address, size_t bytes, uint64_t before, uint64_t after, core::order o,
                         core::scope s);
  void fenced(uint32_t lane, core::order o, core::scope s);
  // Relaxed mode: loads that returned an older value than the newest.
  uint64_t stale_loads() const { return relaxed_ ? relaxed_->stale_loads() : 0; }
  // The sit-outs the scheduler made so far (the targeted one's preemptions).
  uint64_t preemptions() const { return preemptions_; }
  // The step at which this lane's last load took its value.
  uint64_t last_load_step(uint32_t lane) const;

  // Zombies: retire() marks a unit logically deleted (shadow state
  // retired), remembering when and by whom; act_on() is called where a
  // team decides from what it read of a unit at `read_step` (returns a
  // result, locks it, links to it), and stops the run when the unit was
  // already a zombie then: a zombie traversal.
  void retire(uint32_t lane, const void* unit);
  void act_on(uint32_t lane, const void* unit, uint64_t read_step, const char* what);
  // What a team is doing, for reports ("find(5)").
  void note_operation(uint32_t lane, std::string what);

  // The recorder's operations (history_log::begin_at and end): under a
  // scheduler that declares operation events (guided) an operation's begin
  // is a scheduling point, where the scheduler may hold it at a gate
  // (until the guide's order lets it begin). Nothing otherwise.
  void operation_begins(uint32_t lane, const void* log, uint32_t stream, uint32_t slot, uint32_t job, OpKind kind);
  void operation_ends(uint32_t lane, const void* log, uint32_t stream, uint32_t slot, ResultKind kind, int64_t result);
  // For harnesses, before run(), passed to the scheduler (guided): a second
  // recording whose streams follow the first's in the guide
  // (Guidance::stream_base), and the records a stream of a log already
  // held (a prefill run before): done.
  void guide_streams(const void* log, uint32_t base);
  void guide_recorded(const void* log, uint32_t stream, uint32_t records);

 private:
  struct Lane;
  struct Group;
  struct Engine;  // Boost.Context fibers and stacks
  void yield_to_scheduler();
  // A scheduling point: what the lane waits to do (`on` its address,
  // `spin_on` the word it spins on, if any), told to a scheduler that hears
  // points; await_turn then yields, and returns when the lane is picked.
  void stop_at(uint32_t lane, core::access a, const void* on, const void* spin_on);
  void await_turn(uint32_t lane, core::access a, const void* on, const void* spin_on);
  void schedule(uint32_t lane);    // runnable again
  void unschedule(uint32_t lane);  // blocked or done
  void maybe_delay(uint32_t lane);  // after a write or a load's segment (SimConfig::delay_probability)
  void delay(uint32_t team, uint64_t steps);  // the team sits out (a delay, or the scheduler's sit_out)
  void wake_delayed(bool earliest_now);
  void erase_owner(const void* lock);
  bool hears(uint32_t events) const { return (events_ & events) != 0; }
  void accessed(uint32_t lane, core::access a, const void* address, size_t bytes, bool changed, core::order o, core::scope s);
  // ---- SchedulerHost ----
  uint32_t teams() const override { return config_.teams; }
  uint32_t lanes_per_team() const override { return config_.lanes; }
  const RunQueue& runnable() const override;
  Access next(uint32_t lane) const override;
  bool waiting(uint32_t lane) const override;
  const void* spinning_on(uint32_t lane) const override;
  std::optional<uint32_t> lock_owner(const void* lock) const override;
  uintptr_t object_of(const void* address) const override;
  bool sits_out(uint32_t team) const override { return delayed_until_[team] != 0; }
  bool any_sits_out() const override { return delayed_teams_ != 0; }
  void sit_out(uint32_t team, uint64_t steps) override;
  void end_sit_out(uint32_t team) override { delayed_until_[team] = step_; }
  void wake_due() override { wake_delayed(false); }
  void open_gate(uint32_t lane) override;
  [[noreturn]] void fault(uint32_t lane, Outcome o, std::string message);
  void describe_blocked(RunReport& r) const;
  std::string unit_fault_message(uint32_t lane, std::string_view access, const void* address, core::unit_state state) const;

  SimConfig config_;
  ShadowMemory shadow_;
  std::unique_ptr<RelaxedMemory> relaxed_;  // relaxed mode only
  std::unique_ptr<Engine> engine_;
  std::vector<Lane> lanes_;
  std::vector<Group> groups_;
  uint64_t step_ = 0;
  uint32_t running_ = 0;
  bool stopped_ = false;
  RunReport report_;
  std::vector<std::pair<const void*, uint32_t>> lock_owner_;  // lock -> team, few at a time
  struct Retirement {
    uint64_t step;
    uint32_t team;
    std::string operation;
  };
  std::unordered_map<uintptr_t, Retirement> retired_;  // unit base address -> when and by whom
  std::vector<std::string> team_operation_;           // per team: what it is doing
  std::vector<uint64_t> delayed_until_;               // per team: 0, or the step it runs again
  uint32_t delayed_teams_ = 0;
  uint64_t delay_draws_;                               // the delays' own random stream

  uint64_t preemptions_ = 0;  // sit-outs the scheduler made

  // The scheduler (Engine::scheduler) hears only the events it declares;
  // an operation's begin is a point when the configured scheduler
  // declares operation events (also when its schedule is replayed).
  uint32_t events_ = 0;
  bool operation_points_ = false;
};

}  // namespace warpcheck::sim
