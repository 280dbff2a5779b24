// The distinct-value multimap checker against the brute-force oracle and
// the general search. It claims to decide every history whose keys never
// get a value inserted twice, pending operations included, so it is held
// to exactly that: never NotApplicable or Undecided on them, LINEARIZABLE
// only with a witness the replayer accepts, VIOLATION only when the oracle
// agrees and on evidence (one key's projection) the oracle refutes too.
// The whole check (which confirms its answers) and the search, pruned and
// plain, must give the oracle's verdict.
#include <gtest/gtest.h>

#include "linearizability/distinct_multimap.hpp"
#include "support/cross_check.hpp"
#include "support/property.hpp"
#include "support/random_histories.hpp"

using namespace warpcheck;
using namespace warpcheck::testing;

namespace {

using Outcome = DistinctValueCheck::Outcome;

// Without hints, a history with no completed operation is explained by
// the (empty) linearization-point replay first.
bool decided_by_the_distinct_value_checker(const History& h, const CheckResult& r) {
  if (std::all_of(h.ops.begin(), h.ops.end(), [](const Operation& op) { return op.pending(); })) return true;
  return decided_by_distinct_value_checker(r, "multimap");
}

// The claims that need no oracle: a witness replays, evidence lies on one
// key, and nothing is left open.
DistinctValueCheck checked_claims(const History& h) {
  const DistinctValueCheck fast = check_distinct_multimap(h);
  RC_ASSERT(fast.outcome != Outcome::NotApplicable);
  RC_ASSERT(fast.outcome != Outcome::Undecided);
  expect_claims_hold(h, fast);
  return fast;
}

void expect_agreement_with_the_oracle(const History& h) {
  const bool expected = brute_force_linearizable(h);
  const DistinctValueCheck fast = checked_claims(h);
  bool pending_erase = false;
  for (const Operation& op : h.ops) pending_erase |= op.pending() && op.data.kind == OpKind::Erase;
  RC_TAG(expected ? "linearizable" : "violation", pending_erase ? "pending erase" : "no pending erase");
  RC_ASSERT((fast.outcome == Outcome::Linearizable) == expected);
  if (fast.outcome == Outcome::Violation) RC_ASSERT(!brute_force_linearizable(sub_history(h, fast.evidence)));
  expect_search_agrees(h, expected);
  RC_ASSERT(decided_by_the_distinct_value_checker(h, check_history(h)));
}

History near_miss(size_t max_ops, int64_t max_keys) {
  const uint64_t overlap = *rc::gen::inRange<uint64_t>(0, 12);
  History h = linearizable_distinct_value_multimap_history(max_ops, max_keys, overlap, *rc::gen::arbitrary<bool>());
  for (int i = *rc::gen::inRange(0, 3); i > 0; --i) corrupt_one_result(h);
  return h;
}

}  // namespace

WC_PROP(DistinctMultimap, RandomHistoriesAgreeWithTheOracle, 30000, ()) {
  expect_agreement_with_the_oracle(random_distinct_value_multimap_history(11, 2));
}

// Linearizable by construction (finds and erases pick any live value),
// then maybe one or two results changed: near misses, both verdicts.
WC_PROP(DistinctMultimap, NearMissesAgreeWithTheOracle, 30000, ()) {
  expect_agreement_with_the_oracle(near_miss(11, 2));
}

// One key, heavy overlap, a pending operation one in four: the shapes
// where pending erases must make room for absent answers.
WC_PROP(DistinctMultimap, OneKeyHeavyOverlapAgreesWithTheOracle, 12000, ()) {
  History h = linearizable_distinct_value_multimap_history(11, 1, 16, *rc::gen::arbitrary<bool>());
  if (*rc::gen::arbitrary<bool>()) corrupt_one_result(h);
  expect_agreement_with_the_oracle(h);
}

// Longer histories than the oracle can take, on up to three keys: the
// checker against the general search.
WC_PROP(DistinctMultimap, LongerHistoriesAgreeWithTheSearch, 2000, ()) {
  const History h = near_miss(70, 3);
  const CheckOptions search = reference_search_options();
  const CheckResult reference = check_history(h, search);
  RC_PRE(reference.verdict != Verdict::Unknown);
  RC_TAG(reference.verdict == Verdict::Linearizable ? "linearizable" : "violation");
  const DistinctValueCheck fast = checked_claims(h);
  RC_ASSERT((fast.outcome == Outcome::Linearizable) == (reference.verdict == Verdict::Linearizable));
  if (fast.outcome == Outcome::Violation) {
    RC_ASSERT(check_history(sub_history(h, fast.evidence), search).verdict == Verdict::Violation);
  }
  const CheckResult whole = check_history(h);
  RC_ASSERT(whole.verdict == reference.verdict);
  RC_ASSERT(decided_by_the_distinct_value_checker(h, whole));
}

// Values inserted twice on a key: not the checker's to decide, though it
// may refute another value first; the whole check falls back to the
// search and still gives the oracle's verdict.
WC_PROP(DistinctMultimap, RepeatedValuesFallBackToTheSearch, 2000, ()) {
  History h = linearizable_distinct_value_multimap_history(9, 2, 6, false);
  std::vector<size_t> inserts;
  for (size_t i = 0; i < h.ops.size(); ++i)
    if (h.ops[i].data.kind == OpKind::Insert) inserts.push_back(i);
  RC_PRE(inserts.size() >= 2);
  const size_t a = *rc::gen::elementOf(inserts), b = *rc::gen::elementOf(inserts);
  RC_PRE(a != b && h.ops[a].data.key == h.ops[b].data.key);
  h.ops[b].data.value = h.ops[a].data.value;
  if (*rc::gen::arbitrary<bool>()) corrupt_one_result(h);
  const bool expected = brute_force_linearizable(h);
  const DistinctValueCheck fast = check_distinct_multimap(h);
  RC_TAG(expected ? "linearizable" : "violation", fast.outcome == Outcome::Violation ? "refuted on another value" : "not applicable");
  RC_ASSERT(fast.outcome == Outcome::NotApplicable || fast.outcome == Outcome::Violation);
  if (fast.outcome == Outcome::Violation) RC_ASSERT(!expected && !brute_force_linearizable(sub_history(h, fast.evidence)));
  const CheckResult r = check_history(h);
  RC_ASSERT((r.verdict == Verdict::Linearizable) == expected);
  if (fast.outcome == Outcome::NotApplicable) RC_ASSERT(!decided_by_distinct_value_checker(r, "multimap"));
}
