// Queues and stacks against the brute-force oracle. The distinct-value
// queue checker is held to its claims on its own: LINEARIZABLE with a
// witness the replayer accepts, VIOLATION only when the oracle agrees and
// on evidence the oracle refutes too, undecided only where pending
// dequeues leave its guess open. The general search (pruned and plain)
// and the whole check (auto) must give the oracle's verdict.
#include <gtest/gtest.h>
#include "support/property.hpp"

#include "linearizability/distinct_queue.hpp"
#include "linearizability/distinct_stack.hpp"
#include "support/cross_check.hpp"
#include "support/random_histories.hpp"

using namespace warpcheck;
using namespace warpcheck::testing;

namespace {

bool has_pending_removal(const History& h) {
  for (const Operation& op : h.ops)
    if (op.pending() && (op.data.kind == OpKind::Dequeue || op.data.kind == OpKind::Pop)) return true;
  return false;
}

void expect_distinct_value_checker_agrees(const History& h) {
  const bool expected = brute_force_linearizable(h);
  const DistinctValueCheck fast = h.meta.model == ModelId::Queue ? check_distinct_queue(h) : check_distinct_stack(h);
  using Outcome = DistinctValueCheck::Outcome;
  RC_TAG(expected ? "linearizable" : "violation", fast.outcome == Outcome::Linearizable ? "fast: linearizable"
                                                  : fast.outcome == Outcome::Violation  ? "fast: violation"
                                                  : fast.outcome == Outcome::Undecided  ? "fast: undecided"
                                                                                        : "fast: not applicable");
  RC_ASSERT(fast.outcome != Outcome::NotApplicable);
  if (fast.outcome == Outcome::Linearizable) {
    RC_ASSERT(expected);
    RC_ASSERT(!witness_error(h, fast.order).has_value());
  }
  if (fast.outcome == Outcome::Violation) {
    RC_ASSERT(!expected);
    RC_ASSERT(!brute_force_linearizable(sub_history(h, fast.evidence)));  // the projection is evidence
  }
  // Complete: only a guess about pending removals leaves it open.
  if (fast.outcome == Outcome::Undecided) RC_ASSERT(has_pending_removal(h));
  expect_search_agrees(h, expected);
}

SyntheticHistorySpec small_spec(ModelId model, size_t max_ops) {
  SyntheticHistorySpec spec;
  spec.model = model;
  spec.operations = *rc::gen::inRange<size_t>(1, max_ops + 1);
  spec.overlap = *rc::gen::inRange<uint64_t>(0, 12);
  spec.pending = *rc::gen::element(0.0, 0.0, 0.15, 0.3);
  spec.seed = *rc::gen::arbitrary<uint64_t>();
  return spec;
}

}  // namespace

WC_PROP(QueueStack, DistinctQueueCheckerOnRandomHistories, 20000, ()) {
  expect_distinct_value_checker_agrees(random_distinct_value_history(ModelId::Queue, 12));
}

// Linearizable by construction, then maybe one result corrupted: near misses.
WC_PROP(QueueStack, DistinctQueueCheckerOnNearMisses, 20000, ()) {
  History h = make_linearizable_history(small_spec(ModelId::Queue, 12));
  for (int i = *rc::gen::inRange(0, 3); i > 0; --i) corrupt_one_result(h);
  expect_distinct_value_checker_agrees(h);
}

WC_PROP(QueueStack, DistinctStackCheckerOnRandomHistories, 20000, ()) {
  expect_distinct_value_checker_agrees(random_distinct_value_history(ModelId::Stack, 12));
}

WC_PROP(QueueStack, DistinctStackCheckerOnNearMisses, 20000, ()) {
  History h = make_linearizable_history(small_spec(ModelId::Stack, 12));
  for (int i = *rc::gen::inRange(0, 3); i > 0; --i) corrupt_one_result(h);
  expect_distinct_value_checker_agrees(h);
}

// Batched queues, duplicate values, stacks: the general search (with the
// anchors that distinct values allow) against the oracle.
WC_PROP(QueueStack, BatchedQueuesAgreeWithTheOracle, 3000, ()) {
  SyntheticHistorySpec spec = small_spec(ModelId::Queue, 8);
  spec.full_batches = true;
  spec.batch = *rc::gen::inRange<uint32_t>(1, 4);
  History h = make_linearizable_history(spec);
  if (*rc::gen::arbitrary<bool>()) corrupt_one_result(h);
  compact_key_pool(h);
  const bool expected = brute_force_linearizable(h);
  RC_TAG(expected ? "linearizable" : "violation");
  expect_search_agrees(h, expected);
}

WC_PROP(QueueStack, StacksAgreeWithTheOracle, 4000, ()) {
  History h = *rc::gen::arbitrary<bool>() ? random_distinct_value_history(ModelId::Stack, 10)
                                          : make_linearizable_history(small_spec(ModelId::Stack, 10));
  if (*rc::gen::arbitrary<bool>()) corrupt_one_result(h);
  const bool expected = brute_force_linearizable(h);
  RC_TAG(expected ? "linearizable" : "violation");
  expect_search_agrees(h, expected);
}

WC_PROP(QueueStack, RepeatedValuesAgreeWithTheOracle, 3000, ()) {
  const ModelId model = *rc::gen::element(ModelId::Queue, ModelId::Stack);
  const History h = random_history(model, 10, 3);
  const bool expected = brute_force_linearizable(h);
  RC_TAG(std::string(h.model().name), expected ? "linearizable" : "violation");
  expect_search_agrees(h, expected);
}

// Longer histories than the oracle can take (many gaps between null
// removals, long FIFO chains, deep stacks): the checkers against the
// general search.
WC_PROP(QueueStack, DistinctValueCheckersAgreeWithTheSearchOnLongerHistories, 1000, ()) {
  SyntheticHistorySpec spec = small_spec(*rc::gen::element(ModelId::Queue, ModelId::Stack), 80);
  spec.overlap = *rc::gen::inRange<uint64_t>(0, 7);
  spec.pending = *rc::gen::element(0.0, 0.0, 0.05);
  History h = make_linearizable_history(spec);
  for (int i = *rc::gen::inRange(0, 3); i > 0; --i) corrupt_one_result(h);
  const CheckOptions search = reference_search_options();
  const CheckResult reference = check_history(h, search);
  RC_PRE(reference.verdict != Verdict::Unknown);
  const DistinctValueCheck fast = spec.model == ModelId::Queue ? check_distinct_queue(h) : check_distinct_stack(h);
  using Outcome = DistinctValueCheck::Outcome;
  RC_TAG(std::string(h.model().name), reference.verdict == Verdict::Linearizable ? "linearizable" : "violation");
  if (fast.outcome == Outcome::Linearizable) RC_ASSERT(reference.verdict == Verdict::Linearizable);
  if (fast.outcome == Outcome::Violation) RC_ASSERT(reference.verdict == Verdict::Violation);
  if (fast.outcome == Outcome::Undecided) RC_ASSERT(has_pending_removal(h));
  RC_ASSERT(fast.outcome != Outcome::NotApplicable);
  RC_ASSERT(check_history(h).verdict == reference.verdict);
}
