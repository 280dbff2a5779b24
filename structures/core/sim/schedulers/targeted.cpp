// Targeted: uniform random picks, plus preemptions aimed where torn reads
// and lock hand-offs happen instead of spread over every step as delays are
// (docs/team-and-memory-layer.md):
//  - inside a read: a lane about to load a word of an object (a pool unit
//    of 16 bytes or more, else its 128-byte line) whose team's last load,
//    with no collective or write of the team since, was another word of it:
//    with chance --preempt-reads the team sits out until other teams'
//    writes tear the read (a write to a word it took, then one to a word it
//    has yet to take) 1 to --preempt-writes times (drawn);
//  - at a hand-off: right after a team's releasing write of a lock, with
//    chance --preempt-handoffs, until other teams wrote the lock's object
//    (its next owner's acquire first) 1 to --preempt-writes times;
// or at most --preempt-steps steps. Meanwhile lanes about to write that
// object run first. Drawn from the seed on a stream of their own: runs
// replay, and a replayed schedule already holds the preemptions.
#include "structures/core/sim/schedulers/targeted.hpp"

#include <algorithm>
#include <stdexcept>

#include "structures/core/sim/schedulers/registry.hpp"
#include "structures/core/sim/simulator.hpp"

namespace warpcheck::sim {

TargetedScheduler::TargetedScheduler(const SimConfig& c, SchedulerHost& host)
    : host_(host),
      random_(make_random_scheduler(c.seed)),
      preempt_reads_(c.preempt_reads),
      preempt_handoffs_(c.preempt_handoffs),
      preempt_writes_(c.preempt_writes),
      preempt_steps_(c.preempt_steps),
      object_(host.teams() * host.lanes_per_team()),
      releasing_(object_.size()),
      preempted_(host.teams()),
      reading_(host.teams()),
      pending_writers_(static_cast<uint32_t>(object_.size())),
      rng_(c.seed * 0xbf58476d1ce4e5b9ull + 0x94d049bb133111ebull) {}

uint32_t TargetedScheduler::pick(const RunQueue& runnable, uint64_t step) {
  uint32_t g = conflicting_writer();
  if (g == UINT32_MAX) g = random_->pick(runnable, step);
  // Spinners alone: preempted teams first; gates only when no team sits
  // out a delay (that ends by itself). A forced gate leaves the guide's
  // order: surer (64 picks a lane) than a preemption's end (8).
  const bool sitting_out = !preempted_teams_.empty();
  if ((sitting_out || at_gates()) && only_spinners_ran(g, sitting_out ? 8 : 64)) {
    if (sitting_out) end_a_preemption();
    else force_a_gate();
  }
  return g;
}

void TargetedScheduler::next(uint32_t lane, const Access& a) {
  if (a.kind == core::access::spin || a.kind == core::access::collective) return;  // its next access is still ahead
  object_[lane] = a.address ? host_.object_of(a.address) : 0;
  if (a.kind != core::access::load || !a.address) return;
  // About to load another word of the object its team's last load read:
  // the team is inside one read of that object.
  const ObjectRead& r = reading_[host_.team_of(lane)];
  if (r.object() == object_[lane] && r.last() != reinterpret_cast<uintptr_t>(a.address))
    maybe_preempt(lane, object_[lane], Until::torn, preempt_reads_);
}

void TargetedScheduler::stepped(uint32_t lane) {
  if (host_.waiting(lane) && host_.next(lane).writes()) pending_writers_.add(lane);
  else pending_writers_.remove(lane);
}

void TargetedScheduler::accessed(uint32_t lane, const Access& a) {
  const uint32_t team = host_.team_of(lane);
  if (a.kind == core::access::load) {
    reading_[team].loaded(host_.object_of(a.address), reinterpret_cast<uintptr_t>(a.address), a.bytes);
    return;
  }
  reading_[team].clear();  // a write: a new phase, not one read
  if (a.changed) wrote(lane, a.address, a.bytes);
}

void TargetedScheduler::lock_acquired(uint32_t lane, const void* lock) {
  if (releasing_[lane] == lock) releasing_[lane] = nullptr;  // taken again before its releasing write
}

void TargetedScheduler::lock_released(uint32_t lane, const void* lock) {
  // Between the release and the next acquire: right after the releasing
  // write. Structures record a release just before that write (a store) or
  // just after it (a CAS, the lane's last access).
  const Access last = host_.next(lane);
  if (last.address == lock && last.writes())
    maybe_preempt(lane, host_.object_of(lock), Until::writes, preempt_handoffs_);
  else
    releasing_[lane] = lock;
}

void TargetedScheduler::sit_out_ended(uint32_t team) {
  if (!preempted_[team].object) return;
  preempted_[team] = {};
  preempted_teams_.erase(std::find(preempted_teams_.begin(), preempted_teams_.end(), team));
}

bool TargetedScheduler::end_a_sit_out() {
  if (preempted_teams_.empty()) return false;
  end_a_preemption();
  return true;
}

void TargetedScheduler::maybe_preempt(uint32_t lane, uintptr_t object, Until until, double chance) {
  const uint32_t team = host_.team_of(lane);
  // Once a team waits on writes that have begun (a write to a word its read
  // took) or on a hand-off, it has the object to itself: the teams reading
  // it are who may write it next.
  const bool taken = std::any_of(preempted_teams_.begin(), preempted_teams_.end(),
                                 [&](uint32_t t) { return preempted_[t].object == object && committed(t); });
  if (host_.sits_out(team) || taken || !may_preempt(team) || !rng_.draw(chance)) return;
  preempted_[team] = {object, until, false, 1 + rng_.below(preempt_writes_)};
  preempted_teams_.push_back(team);
  host_.sit_out(team, preempt_steps_);
}

void TargetedScheduler::wrote(uint32_t lane, const void* address, uint32_t bytes) {
  const uint32_t team = host_.team_of(lane);
  if (!preempted_teams_.empty()) {
    const uintptr_t object = host_.object_of(address);
    for (uint32_t t : preempted_teams_) {
      Preemption& p = preempted_[t];
      if (p.object != object || t == team) continue;
      bool counts = true;  // Until::writes: every write
      if (p.until == Until::torn) {
        // A write to a word the read has yet to take, after an earlier one to
        // a word it took: the read is torn (once more).
        const ObjectRead::Overlap o = reading_[t].overlap(reinterpret_cast<uintptr_t>(address), bytes);
        counts = p.stale && o.unread;
        p.stale |= o.read;
      }
      if (counts && p.writes_left && --p.writes_left == 0) host_.end_sit_out(t);  // it runs again from the next step
    }
  }
  if (releasing_[lane] == address) {
    releasing_[lane] = nullptr;
    maybe_preempt(lane, host_.object_of(address), Until::writes, preempt_handoffs_);
  }
}

// While a team sits out inside its read of an object, a lane about to write
// that object runs first: the read is torn by a write, not just by time.
// A lane spinning on a lock that a team sitting out holds would only spin.
uint32_t TargetedScheduler::conflicting_writer() {
  if (preempted_teams_.empty() || pending_writers_.empty()) return UINT32_MAX;
  choices_.clear();
  for (size_t i = 0; i < pending_writers_.size(); ++i) {
    const uint32_t w = pending_writers_[i];
    if (!host_.runnable().contains(w)) continue;
    const bool awaited = std::any_of(preempted_teams_.begin(), preempted_teams_.end(),
                                     [&](uint32_t t) { return preempted_[t].object == object_[w]; });
    if (!awaited) continue;
    if (const void* spin_on = host_.spinning_on(w)) {
      const auto owner = host_.lock_owner(spin_on);
      if (owner && preempted_[*owner].object) continue;
    }
    choices_.push_back(w);
  }
  return choices_.empty() ? UINT32_MAX : choices_[rng_.below(uint32_t(choices_.size()))];
}

// When only spinning lanes have run for a while (picks_a_lane picks for
// each runnable lane: a lane that is not spinning would have been picked by
// then, all but surely), they wait on the teams sitting out, or at a guided
// run's gates, and no write will come: one of those must go on.
bool TargetedScheduler::only_spinners_ran(uint32_t picked, uint64_t picks_a_lane) {
  if (!host_.spinning_on(picked)) {
    spinner_picks_ = 0;
    return false;
  }
  if (++spinner_picks_ <= picks_a_lane * host_.runnable().size()) return false;
  spinner_picks_ = 0;
  return true;
}

bool TargetedScheduler::committed(uint32_t team) const {
  const Preemption& p = preempted_[team];
  return p.until == Until::writes || p.stale;
}

// Nothing else can go on: one preempted team runs again. One whose read no
// write has touched yet first (drawn among them): it may be who writes the
// object the others wait on; else the one preempted first.
void TargetedScheduler::end_a_preemption() {
  choices_.clear();
  for (uint32_t t : preempted_teams_)
    if (!committed(t)) choices_.push_back(t);
  const uint32_t team = choices_.empty() ? preempted_teams_.front() : choices_[rng_.below(uint32_t(choices_.size()))];
  host_.end_sit_out(team);
  host_.wake_due();
}

namespace {

void validate_preemptions(const SimConfig& c) {
  auto fail = [](const std::string& m) { throw std::invalid_argument("simulator: " + m); };
  if (!(c.preempt_reads >= 0 && c.preempt_reads <= 1) || !(c.preempt_handoffs >= 0 && c.preempt_handoffs <= 1))
    fail("the preemption chances must be in [0, 1]");
  if (c.preempt_writes == 0 || c.preempt_steps == 0) fail("preemptions of at least 1 write and 1 step");
}

}  // namespace

const std::vector<SchedulerOption>& targeted_options() {
  using T = SchedulerOption::Type;
  static const std::vector<SchedulerOption> options{
      {"preempt-reads",
       "targeted: the chance that a team about to load another word of the object (slab, chunk, node, else 128-byte "
       "line) its last load read sits out there until other teams tear that read",
       T::real, "0.1", 0, 1, {}, [](SimConfig& c, const std::string& v) { c.preempt_reads = std::stod(v); }},
      {"preempt-handoffs",
       "targeted: the chance that a team sits out right after releasing a lock, until other teams write the lock's object",
       T::real, "0.25", 0, 1, {}, [](SimConfig& c, const std::string& v) { c.preempt_handoffs = std::stod(v); }},
      {"preempt-writes",
       "targeted: a preempted team waits for 1 to this many tearing writes (at a hand-off: writes), drawn; lanes about to "
       "write the object go first",
       T::integer, "1", 1, double(1u << 20), {},
       [](SimConfig& c, const std::string& v) { c.preempt_writes = uint32_t(std::stoul(v)); }},
      {"preempt-steps", "targeted: the most steps a preempted team sits out", T::integer, "2000", 1,
       double(uint64_t(1) << 32), {}, [](SimConfig& c, const std::string& v) { c.preempt_steps = std::stoull(v); }},
  };
  return options;
}

extern const SchedulerInfo kTargetedScheduler{
    "targeted",
    "targeted: random, and a team preempted inside its read of one object until writes tear it, or at a lock hand-off "
    "(--preempt-*)",
    targeted_options(),
    kPointEvents | kStepEvents | kAccessEvents,
    [](const SimConfig& c, SchedulerHost& h) -> std::unique_ptr<Scheduler> {
      return std::make_unique<TargetedScheduler>(c, h);
    },
    validate_preemptions};

}  // namespace warpcheck::sim
