// The checker's verdict equals the independent brute-force oracle's on many
// thousands of small histories of every model, partitioned or not.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "linearizability/checker.hpp"
#include "linearizability/witness.hpp"
#include "support/brute_force_oracle.hpp"
#include "support/random_histories.hpp"

using namespace warpcheck;
using namespace warpcheck::testing;

namespace {

void expect_agreement(const History& h) {
  const bool expected = brute_force_linearizable(h);
  RC_TAG(std::string(h.model().name), expected ? "linearizable" : "violation");
  for (bool partition : {true, false}) {
    CheckOptions opt;
    opt.partition = partition;
    opt.threads = 1;
    const CheckResult r = check_history(h, opt);
    RC_ASSERT(r.verdict != Verdict::Unknown);
    RC_ASSERT((r.verdict == Verdict::Linearizable) == expected);
    if (r.verdict == Verdict::Linearizable) RC_ASSERT(!witness_error(h, r.witness).has_value());
  }
}

}  // namespace

RC_GTEST_PROP(OracleAgreement, RandomHistoriesOfEveryModel, ()) {
  const ModelId model = *gen_model();
  expect_agreement(random_history(model, 12, 3));
}

RC_GTEST_PROP(OracleAgreement, NearMissHistoriesOfEveryModel, ()) {
  const ModelId model = *gen_model();
  expect_agreement(perturbed_history(model, 12, 6));
}

// The classic hard shape for sets: one key, everything overlapping.
RC_GTEST_PROP(OracleAgreement, SingleKeyHeavyOverlapSets, ()) {
  History h = random_history(ModelId::Set, 12, 1);
  for (Operation& op : h.ops)
    if (!op.pending()) op.ret = op.call + 20;
  expect_agreement(h);
}
