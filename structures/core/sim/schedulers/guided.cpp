// Guided: the targeted scheduler in the order a recorded history (a GPU
// run's) shows: an operation begins once every operation the history shows
// responding before its invocation has responded here (and, unless
// --guide-order real-time, every one invoked before it there has begun
// here); see guidance.hpp. Every operation's begin is a scheduling point of
// its own (kOperationEvents: a guided schedule replays with them), and its
// preemptions happen only inside operations that the history shows
// overlapping another team's.
#include <algorithm>
#include <stdexcept>

#include "structures/core/sim/guidance.hpp"
#include "structures/core/sim/schedulers/registry.hpp"
#include "structures/core/sim/schedulers/targeted.hpp"
#include "structures/core/sim/simulator.hpp"

namespace warpcheck::sim {

extern const SchedulerInfo kTargetedScheduler;

namespace {

class GuidedScheduler final : public TargetedScheduler {
 public:
  GuidedScheduler(const SimConfig& c, SchedulerHost& host)
      : TargetedScheduler(c, host), guidance_(c.guide, c.guide_invocations),
        guide_op_(host.teams() * host.lanes_per_team(), Guidance::kNone) {}

  bool may_begin(uint32_t lane, const OperationPoint& op) override {
    guide_op_[lane] = guidance_.arrive(op.log, op.stream, op.slot, op.job, op.kind);
    if (guidance_.may_begin(guide_op_[lane])) return true;
    gated_.push_back(lane);
    return false;
  }
  void began(uint32_t lane) override {
    const uint32_t op = guide_op_[lane];
    if (op == Guidance::kNone) return;
    // Its invocation stamp is this step: operations invoked after it there may begin now.
    guidance_.begins(op);
    in_flight_.emplace_back(op, host_.team_of(lane));
    open_gates();
  }
  void ended(uint32_t, const OperationPoint& o) override {
    const uint32_t op = guidance_.end(o.log, o.stream, o.slot, o.result_kind, o.result);
    const auto it = std::find_if(in_flight_.begin(), in_flight_.end(), [&](const auto& f) { return f.first == op; });
    if (it != in_flight_.end()) in_flight_.erase(it);
    open_gates();
  }
  // Nothing else to run: the operations its gates wait for will not come
  // (a team gave up, or waits on one at a gate).
  bool open_a_gate() override {
    if (gated_.empty()) return false;
    force_a_gate();
    return true;
  }
  std::string gate_of(uint32_t lane) const override {
    const GuideOp& op = guidance_.op(guide_op_[lane]);
    return "waiting to begin its operation (" + host_.team_name(op.stream) + " job " + std::to_string(op.job) +
           ") in the guide's order";
  }
  void streams_base(const void* log, uint32_t base) override { guidance_.stream_base(log, base); }
  void recorded_before(const void* log, uint32_t stream, uint32_t records) override {
    guidance_.recorded(log, stream, records);
  }
  void report(RunReport& r) const override { r.guidance = guidance_.report(); }

 protected:
  bool may_preempt(uint32_t team) const override {
    return std::any_of(in_flight_.begin(), in_flight_.end(),
                       [&](const auto& f) { return f.second == team && guidance_.concurrent_left(f.first); });
  }
  bool at_gates() const override { return !gated_.empty() && !host_.any_sits_out(); }
  // The gate of the operation invoked first in the guide opens (the oldest
  // gate among equals); what it waited for is released.
  void force_a_gate() override {
    uint32_t first = gated_.front();
    for (const uint32_t g : gated_)
      if (guidance_.op(guide_op_[g]).call < guidance_.op(guide_op_[first]).call) first = g;
    guidance_.force(guide_op_[first]);
    open_gates();
  }

 private:
  // Gated lanes whose operations may begin now run again, oldest first.
  void open_gates() {
    size_t kept = 0;
    for (const uint32_t g : gated_) {
      if (!guidance_.may_begin(guide_op_[g])) {
        gated_[kept++] = g;
        continue;
      }
      host_.open_gate(g);
    }
    gated_.resize(kept);
  }

  Guidance guidance_;
  std::vector<uint32_t> guide_op_;                        // per lane: the guide's operation it is at or in
  std::vector<uint32_t> gated_;                           // lanes waiting at their operation's gate, oldest first
  std::vector<std::pair<uint32_t, uint32_t>> in_flight_;  // (guide operation, team) begun or gated here, not ended
};

std::vector<SchedulerOption> guided_options() {
  std::vector<SchedulerOption> o{
      {"guide-order",
       "guided: the orders of the GPU's history that the run follows: real-time (an operation begins once those that "
       "responded before its invocation there have here) or invocations (and once those invoked before it there have "
       "begun here; the default)",
       SchedulerOption::Type::choice, "", 0, 0, {"real-time", "invocations"},
       [](SimConfig& c, const std::string& v) { c.guide_invocations = v != "real-time"; }}};
  const auto& targeted = targeted_options();
  o.insert(o.end(), targeted.begin(), targeted.end());
  return o;
}

}  // namespace

extern const SchedulerInfo kGuidedScheduler{
    "guided", "guided: targeted, in the order of a GPU run's history (--guide)", guided_options(),
    kPointEvents | kStepEvents | kAccessEvents | kOperationEvents,
    [](const SimConfig& c, SchedulerHost& h) -> std::unique_ptr<Scheduler> {
      return std::make_unique<GuidedScheduler>(c, h);
    },
    [](const SimConfig& c) {
      kTargetedScheduler.validate(c);
      if (c.replay.empty() && !c.guide)
        throw std::invalid_argument(
            "simulator: the guided scheduler needs the recorded history to follow (a guide), or a schedule to replay");
    }};

}  // namespace warpcheck::sim
