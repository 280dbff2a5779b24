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

#include "models/detail/long_step.hpp"

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

}  // namespace detail

}  // namespace warpcheck
