// The simulator's private state: each lane's, each open collective's and
// the engine's (its fibers and scheduler). Shared by simulator.cpp, which
// runs them, and simulator_report.cpp, which describes them.
#pragma once
#include <boost/context/fiber.hpp>
#include <memory>
#include <string>
#include <vector>

#include "structures/core/sim/simulator.hpp"

namespace warpcheck::sim {

struct Simulator::Lane {
  uint32_t team = 0, lane = 0;
  // Gated: at its operation's begin, held there by the scheduler (guided runs).
  enum class State : uint8_t { Runnable, Blocked, Gated, Done } state = State::Runnable;
  core::access waiting = core::access::load;  // what it does next
  const void* on = nullptr;                   // at which address
  const void* spin_on = nullptr;              // its current spin loop waits on this word
  uint64_t spins = 0;                         // iterations of that loop
  Collective at = Collective::Sync;           // its collective, when blocked at one
  uint64_t last_load_step = 0;                // when its last load took its value
  bool delayed = false;                       // runnable, but its team sits out a delay
  core::order order = core::order::relaxed;  // its next access's order and scope
  core::scope scope = core::scope::gpu;
  bool beginning = false;  // at an operation's begin (an operation point)
};

struct Simulator::Group {
  Collective op = Collective::Sync;
  uint32_t arrived = 0;
  uint32_t first = 0;  // the lane that opened this collective
  std::vector<uint64_t> in, out;
  std::vector<uint32_t> src;
  // A coalesced load: each lane's address and width, its segment's leader,
  // and what it loaded when.
  std::vector<uint64_t> address, loaded, loaded_step;
  std::vector<uint32_t> leader;
  std::vector<uint8_t> bytes;
};

struct Simulator::Engine {
  explicit Engine(uint32_t lanes) : runnable(lanes) {}
  std::vector<boost::context::fiber> fibers;
  boost::context::fiber main;
  std::unique_ptr<Scheduler> scheduler;
  RunQueue runnable;
};

// Names in reports.
inline std::string access_name(core::access a) {
  switch (a) {
    case core::access::load: return "load";
    case core::access::store: return "store";
    case core::access::rmw: return "read-modify-write";
    case core::access::fence: return "fence";
    case core::access::collective: return "collective";
    case core::access::spin: return "spin";
    case core::access::exit: return "exit";
  }
  return "?";
}

inline std::string_view collective_name(Collective c) {
  static constexpr std::string_view names[] = {"sync", "ballot", "shfl", "any", "all", "count", "coalesced load"};
  return names[static_cast<int>(c)];
}

}  // namespace warpcheck::sim
