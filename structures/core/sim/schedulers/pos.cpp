// POS, Partial Order Sampling (Yuan, Yang, Gu, "Partial Order Aware
// Concurrency Sampling", CAV 2018). Every pending event (each lane's next
// scheduling point) carries a random priority and the runnable lane whose
// event is highest runs. After an event e ran, every pending event that
// races with e (the same object, in the engine's granularity: a pool unit
// of 16 bytes or more, else the word's 128-byte line; and one of the two a
// write) draws a fresh priority. A uniform random walk samples the
// orderings of independent events over and over; with the reassignment, the
// order of two racing events is a fresh coin each time they race, so the
// partial orders come out closer to uniform. --pos-variant basic leaves the
// reassignment out (BasicPOS: a new event's priority only).
// Priorities are per lane, not per team as PCT's: POS has no change points
// to count, and each lane of a warp has a pending access of its own; a
// collective blocks the lanes that reached it until their team meets.
// A lane about to spin drops below every priority (as under PCT), so a
// spinner cannot starve the lock holder it waits for; its next access, the
// re-read, draws a fresh one.
#include <memory>
#include <unordered_map>
#include <vector>

#include "structures/core/sim/schedulers/lane_heap.hpp"
#include "structures/core/sim/schedulers/registry.hpp"
#include "structures/core/sim/simulator.hpp"

namespace warpcheck::sim {

extern const SchedulerInfo kPosScheduler;

namespace {

class PosScheduler final : public Scheduler {
 public:
  PosScheduler(uint64_t seed, SchedulerHost& host, bool reassign)
      : host_(host), rng_(seed), reassign_(reassign), heap_(host.teams() * host.lanes_per_team()),
        event_(host.teams() * host.lanes_per_team()) {
    for (uint32_t l = 0; l < event_.size(); ++l) heap_.set(l, fresh());
  }

  uint32_t pick(const RunQueue&, uint64_t) override {
    ran_ = heap_.top();
    ran_event_ = event_[ran_];
    return ran_;
  }
  void on_runnable(uint32_t lane) override { heap_.push(lane); }
  void on_blocked(uint32_t lane) override { heap_.remove(lane); }

  void next(uint32_t lane, const Access& a) override {
    unindex(lane);
    const bool located = a.address && (a.kind == core::access::load || a.writes());
    event_[lane] = {located ? host_.object_of(a.address) : 0, a.writes()};
    if (located) index(lane);
    heap_.set(lane, a.kind == core::access::spin ? --lowest_ : fresh());
  }

  // The event picked has run: the pending events racing with it draw afresh.
  void stepped(uint32_t lane) override {
    if (!reassign_ || !ran_event_.object || lane != ran_) return;
    const auto it = at_.find(ran_event_.object);
    if (it == at_.end()) return;
    for (const uint32_t other : it->second)
      if (other != lane && (ran_event_.writes || event_[other].writes)) heap_.set(other, fresh());
  }

 private:
  struct Event {
    uintptr_t object = 0;  // 0: touches no shared object (a collective, a fence, a spin)
    bool writes = false;
  };
  // Non-negative, so that every spinner (below zero) stays below.
  int64_t fresh() { return int64_t(rng_.next() >> 2); }
  void index(uint32_t lane) {
    std::vector<uint32_t>& v = at_[event_[lane].object];
    slot_[lane] = static_cast<uint32_t>(v.size());
    v.push_back(lane);
  }
  void unindex(uint32_t lane) {
    if (!event_[lane].object) return;
    const auto it = at_.find(event_[lane].object);
    std::vector<uint32_t>& v = it->second;
    const uint32_t i = slot_[lane];
    v[i] = v.back();
    slot_[v[i]] = i;
    v.pop_back();
    if (v.empty()) at_.erase(it);  // the index holds only objects some lane is about to touch
  }

  SchedulerHost& host_;
  Rng rng_;
  bool reassign_;
  LaneHeap heap_;
  std::vector<Event> event_;  // per lane: its pending event
  std::vector<uint32_t> slot_ = std::vector<uint32_t>(event_.size());  // its place in at_[object]
  std::unordered_map<uintptr_t, std::vector<uint32_t>> at_;  // object -> lanes whose pending event touches it
  uint32_t ran_ = UINT32_MAX;
  Event ran_event_;
  int64_t lowest_ = 0;
};

}  // namespace

extern const SchedulerInfo kPosScheduler{
    "pos",
    "POS (partial order sampling): random priorities per pending access, the highest runs; accesses racing with the one "
    "that ran draw new ones",
    {{"pos-variant",
      "pos: the events racing with the one that ran draw new priorities (POS); basic: only new events draw (BasicPOS)",
      SchedulerOption::Type::choice, "pos", 0, 0, {"pos", "basic"}}},
    kRunnableEvents | kPointEvents | kStepEvents,
    [](const SimConfig& c, SchedulerHost& h) -> std::unique_ptr<Scheduler> {
      return std::make_unique<PosScheduler>(c.seed, h, option_text(c, kPosScheduler, "pos-variant") != "basic");
    },
    [](const SimConfig& c) {
      const std::string v = option_text(c, kPosScheduler, "pos-variant");
      if (v != "pos" && v != "basic") throw std::invalid_argument("simulator: --pos-variant must be pos or basic, got '" + v + "'");
    }};

}  // namespace warpcheck::sim
