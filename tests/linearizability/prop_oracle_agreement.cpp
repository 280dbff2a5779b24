// The checker's verdict equals the independent brute-force oracle's on many
// thousands of small histories of every model: partitioned or not, and with
// the search's pruning rules on (the fast checker) or off (the plain search).
#include <gtest/gtest.h>
#include "support/property.hpp"

#include "linearizability/checker.hpp"
#include "linearizability/hint_replay.hpp"
#include "linearizability/witness.hpp"
#include "support/brute_force_oracle.hpp"
#include "support/random_histories.hpp"

using namespace warpcheck;
using namespace warpcheck::testing;

namespace {

void expect_agreement(const History& h) {
  const bool expected = brute_force_linearizable(h);
  RC_TAG(std::string(h.model().name), expected ? "linearizable" : "violation");
  for (int variant = 0; variant < 4; ++variant) {
    CheckOptions opt;
    opt.partition = variant & 1;
    opt.prune = variant & 2;
    opt.threads = 1;
    const CheckResult r = check_history(h, opt);
    RC_ASSERT(r.verdict != Verdict::Unknown);
    RC_ASSERT((r.verdict == Verdict::Linearizable) == expected);
    if (r.verdict == Verdict::Linearizable) RC_ASSERT(!witness_error(h, r.witness).has_value());
  }
}

}  // namespace

WC_PROP(OracleAgreement, RandomHistoriesOfEveryModel, 10000, ()) {
  const ModelId model = *gen_model();
  expect_agreement(random_history(model, 12, 3));
}

WC_PROP(OracleAgreement, NearMissHistoriesOfEveryModel, 10000, ()) {
  const ModelId model = *gen_model();
  expect_agreement(perturbed_history(model, 12, 6));
}

// Random linearization-point hints: when replaying them explains a history,
// the history is linearizable (the replay is sound), and the verdict with
// hints present still equals the oracle's.
WC_PROP(OracleAgreement, HintReplayIsSound, 10000, ()) {
  const ModelId model = *gen_model();
  History h = *rc::gen::element(0, 1) ? random_history(model, 10, 2) : perturbed_history(model, 10, 6);
  for (Operation& op : h.ops) {
    op.has_hint = !op.pending() || *rc::gen::element(0, 1);
    const uint64_t end = op.pending() ? op.call + 16 : op.ret;
    op.hint = op.has_hint ? *rc::gen::inRange<uint64_t>(op.call, end + 1) : 0;
  }
  const bool expected = brute_force_linearizable(h);
  const HintReplay replay = replay_hints(h);
  RC_TAG(replay.outcome == HintReplay::Outcome::Explained ? "explained" : "not explained");
  if (replay.outcome == HintReplay::Outcome::Explained) RC_ASSERT(expected);
  RC_ASSERT((check_history(h).verdict == Verdict::Linearizable) == expected);
}

// Priority queues with distinct keys (the lazy-push rule's home ground):
// batched pushes and pops, heavy overlap, some results corrupted.
WC_PROP(OracleAgreement, DistinctKeyPriorityQueues, 10000, ()) {
  SyntheticHistorySpec spec;
  spec.model = ModelId::PriorityQueue;
  spec.operations = *rc::gen::inRange<size_t>(1, 11);
  spec.keys = 1000000;
  spec.overlap = *rc::gen::inRange<uint64_t>(0, 12);
  spec.pending = *rc::gen::element(0.0, 0.1, 0.3);
  spec.batch = *rc::gen::inRange<uint32_t>(1, 4);
  spec.seed = *rc::gen::arbitrary<uint64_t>();
  History h = make_linearizable_history(spec);
  for (int i = *rc::gen::inRange(0, 3); i > 0; --i) corrupt_one_result(h);
  compact_key_pool(h);
  expect_agreement(h);
}

// Batched priority queues with distinct keys, the home ground of the block
// and forced-pop rules: full or random batches, pushes first or mixed,
// pending operations, wrong pops, everything overlapping.
WC_PROP(OracleAgreement, BatchedDistinctKeyPriorityQueues, 5000, ()) {
  const History h = random_batched_pq_history(10, int64_t(1) << 62, 4);
  expect_agreement(h);
}

// Key-value stores with string values and appends (Porcupine's model).
WC_PROP(OracleAgreement, KvStringsWithAppends, 3000, ()) {
  expect_agreement(random_kv_string_history(8));
}

// The classic hard shape for sets: one key, everything overlapping.
WC_PROP(OracleAgreement, SingleKeyHeavyOverlapSets, 10000, ()) {
  History h = random_history(ModelId::Set, 12, 1);
  for (Operation& op : h.ops)
    if (!op.pending()) op.ret = op.call + 20;
  expect_agreement(h);
}
