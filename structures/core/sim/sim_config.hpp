// What one simulator run is: its shape, seed, scheduler and the
// scheduler's options, bounds, delays and memory model. Apart from the
// engine (simulator.hpp) so that the scheduler registry, which stores
// options into it, does not depend on the engine that asks the registry.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "structures/core/sim/guidance.hpp"

namespace warpcheck::sim {

// The name of a registered scheduler (schedulers/registry.hpp). The
// engine asks the registry for it and knows none by name; the constants
// name the built-in ones for harnesses and tests.
struct SchedulerKind {
  std::string_view name = "random";
  static const SchedulerKind Random, Pct, Targeted, Guided, Pos;
  friend bool operator==(SchedulerKind a, SchedulerKind b) { return a.name == b.name; }
};
inline constexpr SchedulerKind SchedulerKind::Random{"random"};
inline constexpr SchedulerKind SchedulerKind::Pct{"pct"};
inline constexpr SchedulerKind SchedulerKind::Targeted{"targeted"};
inline constexpr SchedulerKind SchedulerKind::Guided{"guided"};
inline constexpr SchedulerKind SchedulerKind::Pos{"pos"};
enum class MemoryModel : uint8_t { sc, relaxed };

struct SimConfig {
  uint32_t teams = 1;
  uint32_t lanes = 32;  // lanes per team: 32 for a warp, more for a block
  // What a team is, in reports (team_word_for): "warp" or "block", as its
  // structure declares; empty: by its lanes.
  std::string team_word;
  uint64_t seed = 1;
  // The scheduler and its options (SchedulerInfo::options): those below
  // that tests set directly live in fields of their own (pct_*, preempt_*,
  // guide*), the others here by name. Only the scheduler reads them.
  SchedulerKind scheduler = SchedulerKind::Random;
  std::map<std::string, std::string> scheduler_options;
  uint32_t pct_depth = 2;      // pct: d, the bug depth PCT aims at (d-1 change points)
  uint64_t pct_steps = 10000;  // pct: k, about how many steps a run takes
  std::string replay;          // a printed schedule to follow instead (empty: none)
  uint64_t max_steps = 200'000'000;
  uint64_t spin_bound = 20'000;  // iterations of one spin loop
  size_t stack_bytes = 256 << 10;
  uint64_t clock_offset = 0;  // added to the recorder's clock: a run that continues an earlier one's history
  // Delays: after a store or read-modify-write, and between the segments
  // of a coalesced load, with this chance the team sits out `delay_steps`
  // steps (every other team runs), widening the windows that publication
  // protocols leave open between their writes, and those between a wide
  // read's transactions (one slow transaction). Without them a team's sync
  // (one step a lane) keeps a writer's consecutive stores further apart
  // than a reader's two transactions ever are. Drawn from the seed: runs
  // replay; a replayed schedule already holds them.
  double delay_probability = 0;
  uint64_t delay_steps = 2000;
  // Delays after a lane's plain load too: the team sits out between its
  // lanes' loads of one slab or chunk, so writers tear the team's read.
  bool delay_after_loads = false;
  // targeted and guided: preemptions inside a read and at lock hand-offs
  // (schedulers/targeted.cpp).
  double preempt_reads = 0.1;
  double preempt_handoffs = 0.25;
  uint32_t preempt_writes = 1;
  uint64_t preempt_steps = 2000;
  // guided: the recorded history (a GPU run's) whose order the run follows
  // (schedulers/guided.cpp); replaying needs no guide.
  std::shared_ptr<const Guide> guide;
  bool guide_invocations = true;  // the invocations' order too, not only real-time order (guidance.hpp)
  // The memory model (see relaxed_memory.hpp): how often a load that may
  // see an older store does, after how many steps a store is seen by every
  // team once a newer one exists, and how many teams a block holds (cta
  // scope). Drawn from the seed and the step: runs replay.
  MemoryModel memory_model = MemoryModel::sc;
  double stale_chance = 0.5;
  uint64_t visibility_steps = 4000;
  uint32_t teams_per_block = 1;
  // The last `host_teams` teams are CPU threads beside the kernel (one on
  // host memory): gpu scope does not reach them, only system scope does.
  uint32_t host_teams = 0;
};

}  // namespace warpcheck::sim
