// What the distinct-value decision procedures (distinct_queue.hpp,
// distinct_stack.hpp, distinct_multimap.hpp) answer. They decide histories
// whose inserted values are distinct in near-linear time, where the
// general search may take exponential time; the checker confirms their answers (a witness by the
// replay, a violation's evidence by the search) before it gives them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "linearizability/history.hpp"
#include "models/base/long_step.hpp"

namespace warpcheck {

struct DistinctValueCheck {
  enum class Outcome { NotApplicable, Linearizable, Violation, Undecided };
  Outcome outcome = Outcome::NotApplicable;
  std::string detail;              // why not applicable or undecided; for a violation, what was found
  std::vector<uint32_t> order;     // Linearizable: a witness (history indices)
  // Violation: history indices (ascending) of a projection that is not
  // linearizable; Undecided: possibly one that pending removals explain.
  std::vector<uint32_t> evidence;
  size_t parts = 1;  // parts decided apart (a keyed model's keys)
};

namespace detail {

// The procedures' "no operation" (a value nobody removed) and "never" (the
// removal of a value nobody removed: at infinity).
inline constexpr uint32_t kNone = UINT32_MAX;
inline constexpr uint64_t kNever = kPendingTime;

// The procedures' loops poll the checker's budget once every 65,536 steps.
inline void poll_every(size_t i) {
  if ((i & 0xffff) == 0xffff) poll_long_step();
}

// What the procedures' classes share: the answer being built, and the two
// ways to stop without a finding. Each returns false: "stop here".
class DistinctValueDecision {
 protected:
  using Outcome = DistinctValueCheck::Outcome;

  bool not_applicable(std::string why) {
    result_.outcome = Outcome::NotApplicable;
    result_.detail = std::move(why);
    return false;
  }

  bool undecided(std::string why) {
    result_.outcome = Outcome::Undecided;
    result_.detail = std::move(why);
    return false;
  }

  // A finding (a violation, or undecided where it rests on a guess) with
  // its evidence: the operations, sorted and each once.
  bool found(Outcome outcome, std::vector<uint32_t> ops, std::string why) {
    std::sort(ops.begin(), ops.end());
    ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
    result_.outcome = outcome;
    result_.detail = std::move(why);
    result_.evidence = std::move(ops);
    return false;
  }

  DistinctValueCheck result_;
};

// A procedure's decision over one history: the history, and the accessors
// every procedure's class needs.
class HistoryDecision : protected DistinctValueDecision {
 public:
  explicit HistoryDecision(const History& h) : h_(h) {}
  DistinctValueCheck& finding() { return result_; }

 protected:
  const Operation& op(uint32_t i) const { return h_.ops[i]; }
  std::string describe(uint32_t i) const { return describe_operation(h_, h_.ops[i]); }

  const History& h_;
};

// Operations grouped by the value each names (of[k], an index below
// `values`, for ops[k]), in a counting sort that keeps their order:
// returns them by value, with value v's at [begin[v], begin[v + 1]).
inline std::vector<uint32_t> group_by_value(const std::vector<uint32_t>& ops, const std::vector<uint32_t>& of, size_t values,
                                            std::vector<uint32_t>& begin) {
  begin.assign(values + 1, 0);
  for (uint32_t v : of) ++begin[v + 1];
  for (size_t v = 1; v <= values; ++v) begin[v] += begin[v - 1];
  std::vector<uint32_t> grouped(ops.size()), next(begin.begin(), begin.end() - 1);
  for (size_t k = 0; k < ops.size(); ++k) grouped[next[of[k]]++] = ops[k];
  return grouped;
}

}  // namespace detail

}  // namespace warpcheck
