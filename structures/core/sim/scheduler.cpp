#include "structures/core/sim/scheduler.hpp"

#include <algorithm>
#include <numeric>

namespace warpcheck::sim {

namespace {

class RandomScheduler final : public Scheduler {
 public:
  explicit RandomScheduler(uint64_t seed) : rng_(seed) {}
  uint32_t pick(const RunQueue& runnable, uint64_t) override {
    return runnable[rng_.below(static_cast<uint32_t>(runnable.size()))];
  }

 private:
  Rng rng_;
};

// PCT over teams: the "threads" of PCT are teams (lanes of a warp advance
// together, meeting at every collective), so a team's lanes share its
// priority, ordered inside it by a fixed random permutation. A lane's key is
// team_priority * lanes_per_team + its rank in the team. With one lane per
// team this is PCT over lanes.
// Runnable lanes sit in an indexed max-heap by key: picking, blocking and
// re-prioritizing are O(log n), so PCT keeps pace with 512 lanes.
class PctScheduler final : public Scheduler {
 public:
  PctScheduler(uint64_t seed, uint32_t lanes, uint32_t per_team, uint32_t depth, uint64_t steps)
      : per_team_(per_team), team_priority_(lanes / per_team), rank_(lanes), priority_(lanes), at_(lanes, kAbsent) {
    Rng rng(seed);
    // Initial team priorities depth .. depth+teams-1 in a random order (higher runs first).
    shuffled(team_priority_, int64_t(depth), rng);
    for (uint32_t t = 0; t < team_priority_.size(); ++t) {
      std::vector<int64_t> rank(per_team);
      shuffled(rank, 0, rng);
      for (uint32_t l = 0; l < per_team; ++l) rank_[t * per_team + l] = rank[l];
    }
    for (uint32_t l = 0; l < lanes; ++l) priority_[l] = key(l);
    // depth-1 change points in [1, steps]; the i-th (in step order) lowers
    // the running team to depth-i, below every initial priority.
    for (uint32_t i = 1; i < depth; ++i) change_at_.push_back(1 + rng.next() % std::max<uint64_t>(steps, 1));
    std::sort(change_at_.begin(), change_at_.end());
  }

  uint32_t pick(const RunQueue&, uint64_t step) override {
    while (next_change_ < change_at_.size() && change_at_[next_change_] <= step) {
      if (last_ != kAbsent) set_team_priority(last_ / per_team_, int64_t(change_at_.size()) - int64_t(next_change_));
      ++next_change_;
    }
    return last_ = heap_.front();
  }

  // A spinning lane waits for another team: let every other team go first.
  void on_spin(uint32_t lane) override { set_team_priority(lane / per_team_, --lowest_); }

  void on_runnable(uint32_t lane) override {
    if (at_[lane] != kAbsent) return;
    at_[lane] = static_cast<uint32_t>(heap_.size());
    heap_.push_back(lane);
    up(at_[lane]);
  }
  void on_blocked(uint32_t lane) override {
    const uint32_t i = at_[lane];
    if (i == kAbsent) return;
    at_[lane] = kAbsent;
    const uint32_t moved = heap_.back();
    heap_.pop_back();
    if (i == heap_.size()) return;
    heap_[i] = moved;
    at_[moved] = i;
    down(up(i));
  }

 private:
  static constexpr uint32_t kAbsent = UINT32_MAX;
  bool above(uint32_t a, uint32_t b) const { return priority_[heap_[a]] > priority_[heap_[b]]; }
  void swap_at(uint32_t a, uint32_t b) {
    std::swap(heap_[a], heap_[b]);
    at_[heap_[a]] = a;
    at_[heap_[b]] = b;
  }
  uint32_t up(uint32_t i) {
    while (i > 0 && above(i, (i - 1) / 2)) {
      swap_at(i, (i - 1) / 2);
      i = (i - 1) / 2;
    }
    return i;
  }
  void down(uint32_t i) {
    for (;;) {
      uint32_t best = i;
      for (uint32_t c : {2 * i + 1, 2 * i + 2})
        if (c < heap_.size() && above(c, best)) best = c;
      if (best == i) return;
      swap_at(i, best);
      i = best;
    }
  }
  static void shuffled(std::vector<int64_t>& v, int64_t first, Rng& rng) {
    std::iota(v.begin(), v.end(), first);
    for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng.below(static_cast<uint32_t>(i))]);
  }
  int64_t key(uint32_t lane) const { return team_priority_[lane / per_team_] * per_team_ + rank_[lane]; }
  void set_team_priority(uint32_t team, int64_t p) {
    team_priority_[team] = p;
    for (uint32_t l = team * per_team_; l < (team + 1) * per_team_; ++l) {
      priority_[l] = key(l);
      if (at_[l] != kAbsent) down(up(at_[l]));
    }
  }

  uint32_t per_team_;
  std::vector<int64_t> team_priority_, rank_;
  std::vector<int64_t> priority_;
  std::vector<uint32_t> heap_, at_;
  std::vector<uint64_t> change_at_;
  size_t next_change_ = 0;
  uint32_t last_ = kAbsent;
  int64_t lowest_ = 0;
};

class ReplayScheduler final : public Scheduler {
 public:
  explicit ReplayScheduler(Schedule s) : schedule_(std::move(s)) {}
  uint32_t pick(const RunQueue& runnable, uint64_t step) override {
    if (step >= schedule_.size()) {
      why_ = "the schedule ends at step " + std::to_string(step) + " but the run goes on";
      return UINT32_MAX;
    }
    const uint32_t lane = schedule_[step];
    if (lane >= runnable_limit(runnable) || !runnable.contains(lane)) {
      why_ = "at step " + std::to_string(step) + " the schedule runs lane " + std::to_string(lane) +
             ", which is not runnable: the program or its configuration differs from the recorded run";
      return UINT32_MAX;
    }
    return lane;
  }
  std::string why() const override { return why_; }

 private:
  // Lanes beyond the run's count cannot be looked up.
  static uint32_t runnable_limit(const RunQueue& q) { return q.capacity(); }
  Schedule schedule_;
  std::string why_;
};

}  // namespace

std::unique_ptr<Scheduler> make_random_scheduler(uint64_t seed) { return std::make_unique<RandomScheduler>(seed); }
std::unique_ptr<Scheduler> make_pct_scheduler(uint64_t seed, uint32_t lanes, uint32_t lanes_per_team, uint32_t depth,
                                              uint64_t steps) {
  return std::make_unique<PctScheduler>(seed, lanes, lanes_per_team, depth, steps);
}
std::unique_ptr<Scheduler> make_replay_scheduler(Schedule schedule) {
  return std::make_unique<ReplayScheduler>(std::move(schedule));
}

}  // namespace warpcheck::sim
