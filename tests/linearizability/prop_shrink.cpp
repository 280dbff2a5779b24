// Counterexamples: a shrunk counterexample is still refuted, it is made only
// of (possibly cut) operations of the original, and when it is reported
// minimal, dropping any one more droppable operation makes it linearizable.
// The shrinking steps themselves keep linearizable histories linearizable.
#include <gtest/gtest.h>
#include "support/property.hpp"

#include <numeric>

#include "linearizability/checker.hpp"
#include "linearizability/detail/shrink.hpp"
#include "support/brute_force_oracle.hpp"
#include "support/random_histories.hpp"

using namespace warpcheck;
using namespace warpcheck::testing;

namespace {

bool droppable(const History& h, const Operation& op) {
  return visit_model(h.meta.model, [&](auto model) { return decltype(model)::leaves_state_unchanged(op.data); });
}

const Operation* find_id(const History& h, uint64_t id) {
  for (const Operation& op : h.ops)
    if (op.id == id) return &op;
  return nullptr;
}

}  // namespace

WC_PROP(Shrink, CounterexampleIsRefutedMinimalEvidence, 10000, ()) {
  const ModelId model = *gen_model();
  const History h = *rc::gen::element(0, 1) ? random_history(model, 16, 2) : perturbed_history(model, 16, 6);
  const CheckResult r = check_history(h);
  RC_PRE(r.verdict == Verdict::Violation);
  if (h.ops.size() <= 12) RC_ASSERT(!brute_force_linearizable(h));
  const Counterexample& cx = *r.counterexample;
  RC_ASSERT(!cx.history.ops.empty());
  RC_ASSERT(cx.history.ops.size() <= cx.shrunk_from);
  RC_ASSERT(check_history(cx.history).verdict == Verdict::Violation);
  RC_ASSERT(!brute_force_linearizable(cx.history));
  for (const Operation& op : cx.history.ops) {
    const Operation* orig = find_id(h, op.id);
    RC_ASSERT(orig != nullptr);
    const bool was_cut = std::count(cx.cut.begin(), cx.cut.end(), op.id) > 0;
    RC_ASSERT(op.pending() == (orig->pending() || was_cut));
    RC_ASSERT(op.call == orig->call);
    RC_ASSERT(op.data.kind == orig->data.kind);
  }
  RC_ASSERT(cx.minimal);
  for (size_t i = 0; i < cx.history.ops.size(); ++i) {
    if (!droppable(cx.history, cx.history.ops[i]) || cx.history.ops.size() == 1) continue;
    History smaller = cx.history;
    smaller.ops.erase(smaller.ops.begin() + long(i));
    RC_ASSERT(check_history(smaller).verdict == Verdict::Linearizable);
  }
}

// The steps the shrinker may take never turn a linearizable history into a
// refuted one: that is what makes its output evidence about the original.
WC_PROP(Shrink, ShrinkStepsPreserveLinearizability, 10000, ()) {
  const ModelId model = *gen_model();
  History h = perturbed_history(model, 12, 6);
  RC_PRE(brute_force_linearizable(h));
  if (!h.ops.empty() && *rc::gen::element(0, 1)) {
    uint64_t t = h.ops[*rc::gen::inRange<size_t>(0, h.ops.size())].call + *rc::gen::inRange<uint64_t>(0, 4);
    h.ops = visit_model(model, [&](auto m) { return detail::Shrinker<decltype(m)>::cut(h.ops, t, nullptr); });
  }
  std::erase_if(h.ops, [&](const Operation& op) { return droppable(h, op) && *rc::gen::element(0, 1); });
  RC_ASSERT(brute_force_linearizable(h));
}
