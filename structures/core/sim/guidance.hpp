// Guidance from a recorded history (SchedulerKind::Guided): a GPU run's
// operations, with their intervals and results, steer a simulated run of
// the same workload so that its real-time order follows the GPU's.
//
// The history proves two orders of events, and nothing else: A responded
// before B was invoked (ret_A < call_B: real-time order, happens-before),
// and A was invoked before B (call_A < call_B: the invocation stamps, taken
// before each operation's first access, on one clock). Ties prove nothing.
// A guided run lets an operation begin only once every operation that
// responded before its invocation there has responded here and, unless
// turned off, every operation invoked before it there has begun here:
// operations start in the GPU's order, and what they overlapped there they
// may overlap here, the scheduler's seeded choices deciding the rest. A
// warp recorded as one batch (batch_log: every operation with the warp's
// interval) orders whole warps and nothing inside one: its stamps prove
// that all of its operations responded by its response stamp, and only
// that its first began at its invocation stamp. The guidance constrains
// less there, never more than the history proves.
//
// Operations are matched by where they were recorded: the stream (team)
// and the position in it, which the GPU and the simulator share when they
// run one workload in one shape (each team takes its queue in the same
// order; a prefill's records come first in both). The job id and the kind
// must agree too; a simulated operation whose place holds another one is
// looked up by job and kind in its stream (a clStash warp fetches jobs in
// the order its queue gives), and one found nowhere is not guided at all
// (counted as unmatched: past the end of its stream in the guide, where the
// GPU run's team stopped early or records were lost, or conflicting, where
// the guide holds another operation: a guide of another workload or
// shape). When the run cannot go on (the operations a gate
// waits for will not come: a team gave up, or waits on a team at a gate),
// the earliest gate is opened, the operations it waited for released
// (counted as forced): the run stays bounded and says it left the GPU's order.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "models/op.hpp"

namespace warpcheck::sim {

// One operation of the guiding history.
struct GuideOp {
  static constexpr uint64_t kNoResponse = UINT64_MAX;
  uint32_t stream = 0;  // the history's team
  uint32_t slot = 0;    // its place in the stream (0, 1, ... in record order)
  uint32_t job = 0;     // the history's lane: the job id inside the team
  OpKind kind = OpKind::Insert;
  uint64_t call = 0, ret = kNoResponse;  // kNoResponse: it never responded (pending)
  ResultKind result_kind = ResultKind::None;
  int64_t result = 0;
  bool compare_result = false;  // a result a simulated one can be compared with (not a batch of keys)
  bool responded() const { return ret != kNoResponse; }
};

struct Guide {
  std::vector<GuideOp> ops;
};

// How closely a guided run followed its guide.
struct GuidanceReport {
  uint64_t guide_ops = 0;   // operations of the guide
  uint64_t matched = 0;     // simulated operations matched to one of the guide's
  uint64_t unmatched = 0;   // simulated operations with no counterpart (not guided, not compared)
  uint64_t conflicting = 0; // ... of which the guide's place for it holds another operation: another run's guide
  uint64_t gated = 0;       // operations that waited at their gate for the guide's order
  uint64_t forced = 0;      // operations of the guide released so that a stuck run could go on
  uint64_t compared = 0;    // completed operations whose result could be compared with the guide's
  uint64_t equal = 0;       // ... and was the same
  std::string first_unmatched;   // in words, when there is one
  std::string first_divergence;  // the first result unlike the guide's, in words
  bool on_track() const { return unmatched == 0 && forced == 0 && equal == compared; }
};
// "results as on the GPU: 180 of 192 compared (first unlike: ...); ..."
std::string describe(const GuidanceReport& r);

// A guided run's state: which operations have begun and responded here,
// and how far each of the guide's orders has come.
class Guidance {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;

  // invocation_order: follow the invocations' order too, not only real-time order.
  Guidance(std::shared_ptr<const Guide> guide, bool invocation_order);

  // A recording whose stream s is the guide's stream base + s (a structure
  // that records into two logs: a hybrid of two kernels). Others: base 0.
  void stream_base(const void* log, uint32_t base);
  // The first `records` operations of a stream were recorded before the
  // run began (a prefill run alone first): they began and responded.
  void recorded(const void* log, uint32_t stream, uint32_t records);

  // A simulated operation arrives at its begin: its counterpart in the
  // guide, or kNone. It waits there until may_begin(), then begins().
  uint32_t arrive(const void* log, uint32_t stream, uint32_t slot, uint32_t job, OpKind kind);
  bool may_begin(uint32_t op) const;
  void begins(uint32_t op);
  // A simulated operation responded: its counterpart (kNone: none). Moves
  // the orders on; its result is compared with the guide's.
  uint32_t end(const void* log, uint32_t stream, uint32_t slot, ResultKind kind, int64_t result);
  // Releases what the gate of `op` still waits for.
  void force(uint32_t op);

  // Operations of other streams that the history shows overlapping `op`
  // (neither responded before the other was invoked) and that have not
  // responded here yet: a preemption inside `op` may let them interleave
  // as they did there.
  bool concurrent_left(uint32_t op) const { return op != kNone && concurrent_left_[op] > 0; }
  const GuideOp& op(uint32_t i) const { return guide_->ops[i]; }
  const GuidanceReport& report() const { return report_; }

 private:
  enum class State : uint8_t { waiting, arrived, began, responded };
  // One of the history's orders: its operations by one time; how many of
  // them each operation's invocation comes strictly after; how many of the
  // first have happened here (or were released).
  struct Order {
    std::vector<uint32_t> by_time;
    std::vector<uint32_t> before;  // per operation
    std::vector<bool> released;    // per operation
    uint32_t reached = 0;
  };
  void build(Order& o, bool by_response);
  void advance(Order& o, State happened);
  uint32_t stream_of(const void* log, uint32_t stream) const;
  void settle(uint32_t op);  // it responded here
  template <class F>
  void for_each_concurrent(uint32_t op, F f) const;

  std::shared_ptr<const Guide> guide_;
  bool invocation_order_;
  std::vector<std::vector<uint32_t>> by_stream_;  // stream -> its operations in slot order
  Order responses_, invocations_;
  std::vector<State> state_;
  std::vector<uint32_t> by_call_;          // every operation by invocation time
  std::vector<uint32_t> concurrent_left_;  // per operation: see concurrent_left()
  std::unordered_map<uint64_t, uint32_t> running_;  // (stream, slot) -> counterpart, until it ends
  std::vector<std::pair<const void*, uint32_t>> bases_;
  GuidanceReport report_;
};

}  // namespace warpcheck::sim
