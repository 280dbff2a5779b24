// PCT (Burckhardt, Kothari, Musuvathi, Nagarakatte, ASPLOS 2010): random
// distinct priorities, the highest runnable lane runs, and d-1 random change
// points each drop the running one below every initial priority. A bug of
// depth d shows with probability at least 1 / (n * k^(d-1)) per run, for n
// threads and k steps.
// PCT's threads are teams here: lanes of a warp advance together, meeting
// at every collective, so a team's lanes share its priority, ordered inside
// it by a fixed random permutation. A lane's key is
// team_priority * lanes_per_team + its rank in the team. With one lane per
// team this is PCT over lanes.
// A spinning lane waits for another team: PCT drops it below everyone, so a
// high-priority spinner cannot starve the lock holder it waits for.
#include <algorithm>
#include <memory>
#include <numeric>
#include <stdexcept>

#include "structures/core/sim/schedulers/lane_heap.hpp"
#include "structures/core/sim/schedulers/registry.hpp"
#include "structures/core/sim/simulator.hpp"

namespace warpcheck::sim {

namespace {

class PctScheduler final : public Scheduler {
 public:
  PctScheduler(uint64_t seed, uint32_t lanes, uint32_t per_team, uint32_t depth, uint64_t steps)
      : per_team_(per_team), team_priority_(lanes / per_team), rank_(lanes), heap_(lanes) {
    Rng rng(seed);
    // Initial team priorities depth .. depth+teams-1 in a random order (higher runs first).
    shuffled(team_priority_, int64_t(depth), rng);
    for (uint32_t t = 0; t < team_priority_.size(); ++t) {
      std::vector<int64_t> rank(per_team);
      shuffled(rank, 0, rng);
      for (uint32_t l = 0; l < per_team; ++l) rank_[t * per_team + l] = rank[l];
    }
    for (uint32_t l = 0; l < lanes; ++l) heap_.set(l, key(l));
    // depth-1 change points in [1, steps]; the i-th (in step order) lowers
    // the running team to depth-i, below every initial priority.
    for (uint32_t i = 1; i < depth; ++i) change_at_.push_back(1 + rng.next() % std::max<uint64_t>(steps, 1));
    std::sort(change_at_.begin(), change_at_.end());
  }

  uint32_t pick(const RunQueue&, uint64_t step) override {
    while (next_change_ < change_at_.size() && change_at_[next_change_] <= step) {
      if (last_ != kNone) set_team_priority(last_ / per_team_, int64_t(change_at_.size()) - int64_t(next_change_));
      ++next_change_;
    }
    return last_ = heap_.top();
  }

  void next(uint32_t lane, const Access& a) override {
    if (a.kind == core::access::spin) set_team_priority(lane / per_team_, --lowest_);  // let every other team go first
  }
  void on_runnable(uint32_t lane) override { heap_.push(lane); }
  void on_blocked(uint32_t lane) override { heap_.remove(lane); }

 private:
  static constexpr uint32_t kNone = UINT32_MAX;
  static void shuffled(std::vector<int64_t>& v, int64_t first, Rng& rng) {
    std::iota(v.begin(), v.end(), first);
    for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng.below(static_cast<uint32_t>(i))]);
  }
  int64_t key(uint32_t lane) const { return team_priority_[lane / per_team_] * per_team_ + rank_[lane]; }
  void set_team_priority(uint32_t team, int64_t p) {
    team_priority_[team] = p;
    for (uint32_t l = team * per_team_; l < (team + 1) * per_team_; ++l) heap_.set(l, key(l));
  }

  uint32_t per_team_;
  std::vector<int64_t> team_priority_, rank_;
  LaneHeap heap_;
  std::vector<uint64_t> change_at_;
  size_t next_change_ = 0;
  uint32_t last_ = kNone;
  int64_t lowest_ = 0;
};

}  // namespace

extern const SchedulerInfo kPctScheduler{
    "pct",
    "PCT: random team priorities, the highest runs, and d - 1 change points (--pct-depth d) each drop the running team",
    {{"pct-depth", "PCT's bug depth d (d - 1 priority change points)", SchedulerOption::Type::integer, "3", 1, 64, {},
      [](SimConfig& c, const std::string& v) { c.pct_depth = uint32_t(std::stoul(v)); }},
     {"pct-steps", "PCT's step estimate k (default: one run's steps, measured)", SchedulerOption::Type::integer, "", 1,
      double(uint64_t(1) << 40), {}, [](SimConfig& c, const std::string& v) { c.pct_steps = std::stoull(v); }, true}},
    kRunnableEvents | kPointEvents,
    [](const SimConfig& c, SchedulerHost& h) -> std::unique_ptr<Scheduler> {
      return std::make_unique<PctScheduler>(c.seed, h.teams() * h.lanes_per_team(), h.lanes_per_team(), c.pct_depth,
                                            c.pct_steps);
    },
    [](const SimConfig& c) {
      if (c.pct_depth == 0 || c.pct_steps == 0)
        throw std::invalid_argument("simulator: PCT needs a depth and a step estimate of at least 1");
    }};

}  // namespace warpcheck::sim
