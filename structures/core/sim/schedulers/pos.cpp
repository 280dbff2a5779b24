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
// Priorities belong to teams, as PCT's do (a warp's lanes advance together,
// meeting at every collective): a team's pending events are its lanes'
// next accesses, the team draws a fresh priority whenever one of its lanes
// reaches a new one, a race redraws the other teams pending on the object,
// and inside a team its lanes run in a fixed random order. --pos-unit lane
// gives each lane a priority of its own (POS over lanes).
// A lane about to spin drops its team below every priority (as under PCT),
// so a spinner cannot starve the lock holder it waits for; its next access,
// the re-read, draws a fresh one.
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "structures/core/sim/schedulers/lane_heap.hpp"
#include "structures/core/sim/schedulers/registry.hpp"
#include "structures/core/sim/simulator.hpp"

namespace warpcheck::sim {

extern const SchedulerInfo kPosScheduler;

namespace {

// Who holds a priority: a team (--pos-unit team: its lanes run in a fixed
// random order inside it, as under PCT) or each lane on its own.
class PosScheduler final : public Scheduler {
 public:
  PosScheduler(uint64_t seed, SchedulerHost& host, bool reassign, bool per_team)
      : host_(host), rng_(seed), reassign_(reassign), per_group_(per_team ? host.lanes_per_team() : 1),
        groups_(host.teams() * host.lanes_per_team() / per_group_), event_(host.teams() * host.lanes_per_team()),
        slot_(event_.size()), drawn_at_(host.teams() * host.lanes_per_team() / per_group_, UINT64_MAX) {
    const uint32_t count = static_cast<uint32_t>(event_.size() / per_group_);
    members_.reserve(count);
    for (uint32_t g = 0; g < count; ++g) {
      members_.emplace_back(per_group_);
      // A fixed random order of the group's lanes (highest rank first).
      std::vector<uint32_t> rank(per_group_);
      for (uint32_t i = 0; i < per_group_; ++i) rank[i] = i;
      for (uint32_t i = per_group_; i > 1; --i) std::swap(rank[i - 1], rank[rng_.below(i)]);
      for (uint32_t i = 0; i < per_group_; ++i) members_[g].set(i, rank[i]);
      groups_.set(g, fresh());
    }
  }

  uint32_t pick(const RunQueue&, uint64_t) override {
    const uint32_t g = groups_.top();
    ran_ = g * per_group_ + members_[g].top();
    ran_event_ = event_[ran_];
    return ran_;
  }
  void on_runnable(uint32_t lane) override {
    const uint32_t g = lane / per_group_;
    members_[g].push(lane % per_group_);
    groups_.push(g);
  }
  void on_blocked(uint32_t lane) override {
    const uint32_t g = lane / per_group_;
    members_[g].remove(lane % per_group_);
    if (members_[g].empty()) groups_.remove(g);
  }

  // A new pending event of the lane's group: a fresh priority, or, about
  // to spin, below everyone.
  void next(uint32_t lane, const Access& a) override {
    unindex(lane);
    const bool located = a.address && (a.kind == core::access::load || a.writes());
    event_[lane] = {located ? host_.object_of(a.address) : 0, a.writes()};
    if (located) index(lane);
    groups_.set(lane / per_group_, a.kind == core::access::spin ? --lowest_ : fresh());
  }

  // The event picked has run: the other groups' pending events racing
  // with it draw afresh (once a step each).
  void stepped(uint32_t lane) override {
    if (!reassign_ || !ran_event_.object || lane != ran_) return;
    const auto it = at_.find(ran_event_.object);
    if (it == at_.end()) return;
    const uint64_t step = host_.step();
    for (const uint32_t other : it->second) {
      const uint32_t g = other / per_group_;
      if (g == lane / per_group_ || !(ran_event_.writes || event_[other].writes) || drawn_at_[g] == step) continue;
      drawn_at_[g] = step;
      groups_.set(g, fresh());
    }
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
  uint32_t per_group_;
  LaneHeap groups_;                // groups with a runnable lane, by priority
  std::vector<LaneHeap> members_;  // per group: its runnable lanes (group-local numbers), by rank
  std::vector<Event> event_;       // per lane: its pending event
  std::vector<uint32_t> slot_;     // per lane: its place in at_[object]
  std::vector<uint64_t> drawn_at_;  // per group: the step of its last redraw for a race
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
      SchedulerOption::Type::choice, "pos", 0, 0, {"pos", "basic"}},
     {"pos-unit",
      "who holds a POS priority: team (a team's lanes share it and run in a fixed random order, as under PCT) or lane",
      SchedulerOption::Type::choice, "team", 0, 0, {"team", "lane"}}},
    kRunnableEvents | kPointEvents | kStepEvents,
    [](const SimConfig& c, SchedulerHost& h) -> std::unique_ptr<Scheduler> {
      return std::make_unique<PosScheduler>(c.seed, h, option_text(c, kPosScheduler, "pos-variant") != "basic",
                                            option_text(c, kPosScheduler, "pos-unit") != "lane");
    },
    nullptr};  // its choice options are checked against their declared choices (simulator.cpp)

}  // namespace warpcheck::sim
