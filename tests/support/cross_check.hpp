// What the distinct-value checkers' tests share: which checker decided,
// projections of a history (their evidence), and the general search and
// the whole check held to the brute-force oracle's verdict.
#pragma once

#include <rapidcheck.h>

#include <string>
#include <string_view>
#include <vector>

#include "linearizability/checker.hpp"
#include "linearizability/distinct_value_check.hpp"
#include "linearizability/witness.hpp"
#include "support/brute_force_oracle.hpp"

namespace warpcheck::testing {

// Whether the distinct-value checker of `model` ("queue", "stack",
// "multimap") decided r.
inline bool decided_by_distinct_value_checker(const CheckResult& r, std::string_view model) {
  return r.algorithm.rfind("distinct-value " + std::string(model) + " checker", 0) == 0;
}

// The history restricted to `indices` (ids kept).
inline History sub_history(const History& h, const std::vector<uint32_t>& indices) {
  History sub;
  sub.meta = h.meta;
  sub.key_pool = h.key_pool;
  for (uint32_t i : indices) sub.ops.push_back(h.ops[i]);
  compact_key_pool(sub);
  return sub;
}

// What a distinct-value procedure's answer claims without an oracle: a
// witness the replayer accepts, evidence that is not empty and lies on one
// key.
inline void expect_claims_hold(const History& h, const DistinctValueCheck& fast) {
  if (fast.outcome == DistinctValueCheck::Outcome::Linearizable) RC_ASSERT(!witness_error(h, fast.order).has_value());
  if (fast.outcome == DistinctValueCheck::Outcome::Violation) {
    RC_ASSERT(!fast.evidence.empty());
    for (uint32_t i : fast.evidence) RC_ASSERT(h.ops[i].data.key == h.ops[fast.evidence.front()].data.key);
  }
}

// The general search as a reference for histories too long for the
// oracle: one thread, 5 s, no shrinking.
inline CheckOptions reference_search_options() {
  CheckOptions search;
  search.algorithm = Algorithm::Search;
  search.timeout_seconds = 5;
  search.shrink = false;
  search.threads = 1;
  return search;
}

// The search, pruned and plain, and the whole check give `expected`, with
// witnesses that replay and counterexamples the oracle refutes.
inline void expect_search_agrees(const History& h, bool expected) {
  for (bool prune : {true, false}) {
    CheckOptions opt;
    opt.algorithm = Algorithm::Search;
    opt.prune = prune;
    opt.threads = 1;
    const CheckResult r = check_history(h, opt);
    RC_ASSERT(r.verdict != Verdict::Unknown);
    RC_ASSERT((r.verdict == Verdict::Linearizable) == expected);
    if (r.verdict == Verdict::Linearizable) RC_ASSERT(!witness_error(h, r.witness).has_value());
  }
  const CheckResult r = check_history(h);
  RC_ASSERT((r.verdict == Verdict::Linearizable) == expected);
  if (r.verdict == Verdict::Linearizable) RC_ASSERT(!witness_error(h, r.witness).has_value());
  if (r.verdict == Verdict::Violation) RC_ASSERT(!brute_force_linearizable(r.counterexample->history));
}

}  // namespace warpcheck::testing
