// The distinct-value procedures for single-value models (register,
// cas-register and kv; map) against the brute-force oracle and the general
// search. They claim: LINEARIZABLE only with a witness the replayer
// accepts, VIOLATION only when the oracle agrees and on evidence the oracle
// refutes too, NotApplicable only for a value written twice. The map
// procedure decides every history; the register procedure every one
// without failed CASes (with them, its witness may find no place for one:
// the properties count how often, in tags). The whole check is held to the
// oracle's verdict either way.
#include <gtest/gtest.h>

#include "linearizability/distinct_map.hpp"
#include "linearizability/distinct_register.hpp"
#include "support/cross_check.hpp"
#include "support/property.hpp"
#include "support/random_histories.hpp"

using namespace warpcheck;
using namespace warpcheck::testing;

namespace {

using Outcome = DistinctValueCheck::Outcome;

rc::Gen<ModelId> gen_register_model() { return rc::gen::element(ModelId::Register, ModelId::CasRegister, ModelId::Kv); }

bool has_failed_cas(const History& h) {
  return std::any_of(h.ops.begin(), h.ops.end(),
                     [](const Operation& op) { return op.data.kind == OpKind::Cas && !op.pending() && op.data.result == 0; });
}

// The procedure for the history's model, and whether it may leave it undecided.
DistinctValueCheck decide(const History& h, bool& may_leave_undecided, std::string& name) {
  if (h.meta.model == ModelId::Map) {
    may_leave_undecided = false;
    name = "map";
    return check_distinct_map(h);
  }
  may_leave_undecided = has_failed_cas(h);
  name = "register";
  return check_distinct_register(h);
}

// The claims that need no oracle: a witness replays, evidence lies on one
// key, and only what may stay undecided does.
DistinctValueCheck checked_claims(const History& h, std::string& name) {
  bool may_leave_undecided = false;
  const DistinctValueCheck fast = decide(h, may_leave_undecided, name);
  RC_ASSERT(fast.outcome != Outcome::NotApplicable);
  if (fast.outcome == Outcome::Undecided) RC_ASSERT(may_leave_undecided);
  expect_claims_hold(h, fast);
  return fast;
}

void expect_agreement_with_the_oracle(const History& h) {
  RC_LOG() << encode_jsonl(h);
  const bool expected = brute_force_linearizable(h);
  std::string name;
  const DistinctValueCheck fast = checked_claims(h, name);
  RC_TAG(expected ? "linearizable" : "violation", fast.outcome == Outcome::Undecided ? "undecided" : "decided");
  if (fast.outcome != Outcome::Undecided) RC_ASSERT((fast.outcome == Outcome::Linearizable) == expected);
  if (fast.outcome == Outcome::Violation) RC_ASSERT(!brute_force_linearizable(sub_history(h, fast.evidence)));
  expect_search_agrees(h, expected);
  const bool any_completed = std::any_of(h.ops.begin(), h.ops.end(), [](const Operation& op) { return !op.pending(); });
  if (fast.outcome != Outcome::Undecided && any_completed) RC_ASSERT(decided_by_distinct_value_checker(check_history(h), name));
}

History near_miss(ModelId model, size_t max_ops, int64_t max_keys, uint64_t max_overlap) {
  const uint64_t overlap = *rc::gen::inRange<uint64_t>(0, max_overlap + 1);
  const bool coarse = *rc::gen::arbitrary<bool>();
  History h = model == ModelId::Map ? linearizable_distinct_value_map_history(max_ops, max_keys, overlap, coarse)
                                    : linearizable_distinct_value_register_history(model, max_ops, max_keys, overlap, coarse);
  for (int i = *rc::gen::inRange(0, 3); i > 0; --i) corrupt_one_result(h);
  return h;
}

// Longer histories than the oracle can take: the procedure against the
// general search.
void expect_agreement_with_the_search(const History& h) {
  const CheckOptions search = reference_search_options();
  const CheckResult reference = check_history(h, search);
  RC_PRE(reference.verdict != Verdict::Unknown);
  std::string name;
  const DistinctValueCheck fast = checked_claims(h, name);
  RC_TAG(reference.verdict == Verdict::Linearizable ? "linearizable" : "violation",
         fast.outcome == Outcome::Undecided ? "undecided" : "decided");
  if (fast.outcome != Outcome::Undecided) RC_ASSERT((fast.outcome == Outcome::Linearizable) == (reference.verdict == Verdict::Linearizable));
  if (fast.outcome == Outcome::Violation) RC_ASSERT(check_history(sub_history(h, fast.evidence), search).verdict == Verdict::Violation);
  RC_ASSERT(check_history(h).verdict == reference.verdict);
}

// A value written twice to one register or key: not the procedures' to
// decide, though they may refute another key first; the whole check falls
// back to the search and still gives the oracle's verdict.
void expect_repeated_values_fall_back(History h) {
  if (*rc::gen::arbitrary<bool>()) corrupt_one_result(h);
  // Operations that write their value when they take effect; one of them
  // gets another's value (or a copy of it comes later).
  std::vector<size_t> writes;
  for (size_t i = 0; i < h.ops.size(); ++i) {
    const OpData& d = h.ops[i].data;
    const bool conditional = d.kind == OpKind::Insert || d.kind == OpKind::Cas;
    if (d.kind == OpKind::Write || d.kind == OpKind::Upsert || (conditional && (d.pending || d.result))) writes.push_back(i);
  }
  if (writes.empty()) {  // a write of its own first
    Operation w;
    w.id = h.ops.size();
    w.data.kind = h.meta.model == ModelId::Map ? OpKind::Upsert : OpKind::Write;
    w.data.value = int64_t(h.ops.size()) + 100;
    w.ret = 1;
    clear_unused_fields(h.model(), w);
    writes.push_back(h.ops.size());
    h.ops.push_back(w);
  }
  const size_t a = *rc::gen::elementOf(writes);
  std::vector<size_t> same_key;
  for (size_t i : writes)
    if (i != a && h.ops[i].data.key == h.ops[a].data.key) same_key.push_back(i);
  if (same_key.empty()) {
    Operation copy = h.ops[a];
    copy.id = h.ops.size();
    copy.call = h.ops.back().call + 1;
    copy.ret = copy.pending() ? kPendingTime : copy.call + 3;
    h.ops.push_back(copy);
  } else {
    h.ops[*rc::gen::elementOf(same_key)].data.value = h.ops[a].data.value;
  }
  compact_key_pool(h);
  RC_LOG() << encode_jsonl(h);
  const bool expected = brute_force_linearizable(h);
  bool may_leave_undecided = false;
  std::string name;
  const DistinctValueCheck fast = decide(h, may_leave_undecided, name);
  RC_TAG(expected ? "linearizable" : "violation", fast.outcome == Outcome::Violation ? "refuted on another key" : "not applicable");
  RC_ASSERT(fast.outcome == Outcome::NotApplicable || fast.outcome == Outcome::Violation);
  if (fast.outcome == Outcome::Violation) RC_ASSERT(!expected && !brute_force_linearizable(sub_history(h, fast.evidence)));
  const CheckResult r = check_history(h);
  RC_ASSERT((r.verdict == Verdict::Linearizable) == expected);
  if (fast.outcome == Outcome::NotApplicable) RC_ASSERT(!decided_by_distinct_value_checker(r, name));
}

}  // namespace

// 60,000 cases: 20,000 a model.
WC_PROP(DistinctRegister, RandomHistoriesAgreeWithTheOracle, 60000, ()) {
  expect_agreement_with_the_oracle(random_distinct_value_register_history(*gen_register_model(), 10, 2));
}

// Linearizable by construction, then maybe one or two results changed:
// near misses, both verdicts.
WC_PROP(DistinctRegister, NearMissesAgreeWithTheOracle, 40000, ()) {
  expect_agreement_with_the_oracle(near_miss(*gen_register_model(), 10, 2, 12));
}

// One register, heavy overlap, pending operations: chains at one moment
// and failed CASes compete for free moments.
WC_PROP(DistinctRegister, OneHotRegisterHeavyOverlapAgreesWithTheOracle, 8000, ()) {
  History h = linearizable_distinct_value_register_history(*rc::gen::element(ModelId::Register, ModelId::CasRegister), 10, 1, 16,
                                                           *rc::gen::arbitrary<bool>());
  if (*rc::gen::arbitrary<bool>()) corrupt_one_result(h);
  expect_agreement_with_the_oracle(h);
}

WC_PROP(DistinctRegister, LongerHistoriesAgreeWithTheSearch, 1500, ()) {
  expect_agreement_with_the_search(near_miss(*gen_register_model(), 60, 3, 10));
}

WC_PROP(DistinctRegister, RepeatedValuesFallBackToTheSearch, 2000, ()) {
  expect_repeated_values_fall_back(linearizable_distinct_value_register_history(*gen_register_model(), 12, 1, 6, false));
}

WC_PROP(DistinctMap, RandomHistoriesAgreeWithTheOracle, 20000, ()) {
  expect_agreement_with_the_oracle(random_distinct_value_map_history(10, 2));
}

WC_PROP(DistinctMap, NearMissesAgreeWithTheOracle, 20000, ()) { expect_agreement_with_the_oracle(near_miss(ModelId::Map, 10, 2, 12)); }

// One hot key, heavy overlap, pending operations.
WC_PROP(DistinctMap, OneHotKeyHeavyOverlapAgreesWithTheOracle, 8000, ()) {
  History h = linearizable_distinct_value_map_history(10, 1, 16, *rc::gen::arbitrary<bool>());
  if (*rc::gen::arbitrary<bool>()) corrupt_one_result(h);
  expect_agreement_with_the_oracle(h);
}

WC_PROP(DistinctMap, LongerHistoriesAgreeWithTheSearch, 1500, ()) { expect_agreement_with_the_search(near_miss(ModelId::Map, 60, 3, 10)); }

WC_PROP(DistinctMap, RepeatedValuesFallBackToTheSearch, 2000, ()) {
  expect_repeated_values_fall_back(linearizable_distinct_value_map_history(10, 2, 6, false));
}
