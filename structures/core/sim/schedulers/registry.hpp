// The simulator's schedulers, registered like the structures: each one
// declares its name, a line saying what it does, its options and the
// events it needs, and a factory makes it. One file each in this folder,
// one line each in registry.cpp; the engine asks the registry, never a name.
//
// Adding a scheduler: write schedulers/NAME.cpp with a Scheduler subclass
// and `extern const SchedulerInfo kNameScheduler = {...}`, add that to the
// list in registry.cpp and the file to structures/CMakeLists.txt; its
// options appear in `warpcheck stress --help` and reach it through
// SimConfig::scheduler_options.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "structures/core/sim/scheduler.hpp"

namespace warpcheck::sim {

struct SimConfig;

// The events a scheduler hears (Scheduler's hooks of the same names).
enum SchedulerEvents : uint32_t {
  kNoEvents = 0,
  kRunnableEvents = 1 << 0,   // on_runnable, on_blocked
  kPointEvents = 1 << 1,      // next: each lane's next access, spin or collective
  kStepEvents = 1 << 2,       // stepped
  kAccessEvents = 1 << 3,     // accessed, met, lock_acquired, lock_released, sit_out_ended, end_a_sit_out
  kOperationEvents = 1 << 4,  // an operation's begin is a scheduling point: may_begin, began, ended, open_a_gate
};

// One option of a scheduler, as `warpcheck stress` offers it (--NAME VALUE).
struct SchedulerOption {
  enum class Type : uint8_t { integer, real, choice };
  std::string_view name, help;
  Type type = Type::integer;
  std::string_view default_value;  // empty: none (`measured`, or the scheduler's own)
  double min = 0, max = 0;         // integer and real
  std::vector<std::string_view> choices;
  // Where the value lives: a field of SimConfig that tests set directly;
  // null: SimConfig::scheduler_options under its name.
  void (*store)(SimConfig&, const std::string& value) = nullptr;
  // Without a value, the harness measures one run's steps (PCT's k).
  bool measured = false;
};

struct SchedulerInfo {
  std::string_view name, summary;
  std::vector<SchedulerOption> options;
  uint32_t events = kNoEvents;
  std::unique_ptr<Scheduler> (*make)(const SimConfig&, SchedulerHost&) = nullptr;
  // Throws std::invalid_argument for options it cannot run with; null: none.
  void (*validate)(const SimConfig&) = nullptr;
  // A --scheduler choice; false: chosen by the configuration (replay of a schedule).
  bool chosen_by_name = true;
};

// Every registered scheduler, the default (random) first.
const std::vector<const SchedulerInfo*>& schedulers();
// Throws std::invalid_argument naming the known ones.
const SchedulerInfo& scheduler_named(std::string_view name);

// The scheduler a run uses: its configuration's, or the replay of its schedule.
const SchedulerInfo& scheduler_for(const SimConfig& c);
// Uniform random picks from `seed`: a building block of other strategies.
std::unique_ptr<Scheduler> make_random_scheduler(uint64_t seed);

// Stores an option's value in `c` where the option says.
void store_option(SimConfig& c, const SchedulerOption& o, const std::string& value);
// An option kept in SimConfig::scheduler_options, else its declared default.
std::string option_text(const SimConfig& c, const SchedulerInfo& s, std::string_view option);

}  // namespace warpcheck::sim
