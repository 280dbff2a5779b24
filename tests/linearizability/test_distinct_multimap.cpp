// Known answers for each rule of the distinct-value multimap checker
// (linearizability/distinct_multimap.cpp): the value-level refutations,
// the open stretch (a, b) where a value is surely live and its touching
// ends, values that go back to back, kept values, and the pending erases
// that make room for absent answers, counted; then the checker's use of
// it (confirmed answers, the key at fault, budgets).
#include <gtest/gtest.h>

#include <optional>

#include "linearizability/checker.hpp"
#include "linearizability/distinct_multimap.hpp"
#include "linearizability/witness.hpp"
#include "support/cross_check.hpp"

using namespace warpcheck;
using warpcheck::testing::decided_by_distinct_value_checker;

namespace {

using Outcome = DistinctValueCheck::Outcome;
constexpr std::optional<int64_t> kAbsent = std::nullopt;

// Multimap histories written operation by operation; every call returns
// the operation's index.
struct Multimap {
  History h;
  Multimap() { h.meta.model = ModelId::Multimap; }

  uint32_t insert(int64_t key, int64_t value, uint64_t call, uint64_t ret) {
    return add(OpKind::Insert, key, value, std::nullopt, call, ret);
  }
  uint32_t pending_insert(int64_t key, int64_t value, uint64_t call) { return add(OpKind::Insert, key, value, std::nullopt, call, kPendingTime); }
  uint32_t erase(int64_t key, std::optional<int64_t> got, uint64_t call, uint64_t ret) { return add(OpKind::Erase, key, 0, got, call, ret); }
  uint32_t pending_erase(int64_t key, uint64_t call) { return add(OpKind::Erase, key, 0, std::nullopt, call, kPendingTime); }
  uint32_t find(int64_t key, std::optional<int64_t> got, uint64_t call, uint64_t ret) { return add(OpKind::Find, key, 0, got, call, ret); }
  uint32_t pending_find(int64_t key, uint64_t call) { return add(OpKind::Find, key, 0, std::nullopt, call, kPendingTime); }

  uint32_t add(OpKind kind, int64_t key, int64_t value, std::optional<int64_t> got, uint64_t call, uint64_t ret) {
    Operation op;
    op.id = h.ops.size() + 1;
    op.team = uint32_t(h.ops.size());
    op.call = call;
    op.ret = ret;
    op.data.kind = kind;
    op.data.key = key;
    op.data.value = value;
    op.data.pending = ret == kPendingTime;
    if (!op.data.pending && kind != OpKind::Insert) {
      op.data.result_kind = got ? ResultKind::Value : ResultKind::Absent;
      op.data.result = got.value_or(0);
    }
    h.ops.push_back(op);
    return uint32_t(h.ops.size() - 1);
  }
};

DistinctValueCheck decide(const History& h) { return check_distinct_multimap(h); }

void expect_linearizable(const History& h) {
  const DistinctValueCheck r = decide(h);
  ASSERT_EQ(r.outcome, Outcome::Linearizable) << r.detail;
  EXPECT_FALSE(witness_error(h, r.order).has_value()) << *witness_error(h, r.order);
  const CheckResult whole = check_history(h);
  EXPECT_EQ(whole.verdict, Verdict::Linearizable);
  EXPECT_EQ(check_history(h, CheckOptions{.algorithm = Algorithm::Search}).verdict, Verdict::Linearizable);
}

// Refuted on exactly `evidence`, which the search refutes too.
void expect_violation(const History& h, std::vector<uint32_t> evidence) {
  const DistinctValueCheck r = decide(h);
  ASSERT_EQ(r.outcome, Outcome::Violation) << r.detail;
  std::sort(evidence.begin(), evidence.end());
  EXPECT_EQ(r.evidence, evidence) << r.detail;
  const CheckResult whole = check_history(h);
  EXPECT_EQ(whole.verdict, Verdict::Violation);
  EXPECT_EQ(check_history(h, CheckOptions{.algorithm = Algorithm::Search}).verdict, Verdict::Violation);
}

}  // namespace

TEST(DistinctMultimap, AnAnswerNoInsertOfItsKeyAddedIsAViolation) {
  Multimap m;
  m.insert(2, 7, 0, 1);
  const uint32_t f = m.find(1, 7, 2, 3);  // 7 went in under key 2
  expect_violation(m.h, {f});
}

TEST(DistinctMultimap, AValueErasedTwiceIsAViolation) {
  Multimap m;
  const uint32_t i = m.insert(1, 7, 0, 1), e1 = m.erase(1, 7, 2, 10), e2 = m.erase(1, 7, 3, 9);
  expect_violation(m.h, {i, e1, e2});
}

TEST(DistinctMultimap, AnAnswerReturnedBeforeItsInsertWasInvokedIsAViolation) {
  Multimap m;
  const uint32_t i = m.insert(1, 7, 10, 20), f = m.find(1, 7, 0, 9);
  m.insert(1, 8, 0, 1);
  expect_violation(m.h, {i, f});
  Multimap touching;  // returned at the insert's invocation: concurrent
  touching.insert(1, 7, 10, 20);
  touching.find(1, 7, 0, 10);
  expect_linearizable(touching.h);
}

TEST(DistinctMultimap, AFindInvokedAfterItsValueWasErasedIsAViolation) {
  Multimap m;
  const uint32_t i = m.insert(1, 7, 0, 1), e = m.erase(1, 7, 2, 3), f = m.find(1, 7, 4, 5);
  m.find(1, 7, 1, 2);
  expect_violation(m.h, {i, e, f});
}

// insert(7) returns at 2 and erase -> 7 is invoked at 10: 7 is live
// throughout (2, 10), and only there.
TEST(DistinctMultimap, AnAbsentAnswerInsideASureLifetimeIsAViolation) {
  Multimap m;
  const uint32_t i = m.insert(1, 7, 0, 2), e = m.erase(1, 7, 10, 12), x = m.find(1, kAbsent, 4, 8);
  expect_violation(m.h, {i, e, x});
}

TEST(DistinctMultimap, AnAbsentAnswerMayTakeEitherEndOfTheLifetime) {
  for (auto [call, ret] : {std::pair<uint64_t, uint64_t>{10, 11}, {1, 2}, {0, 20}}) {
    Multimap m;
    m.insert(1, 7, 0, 2);
    m.erase(1, 7, 10, 12);
    m.erase(1, kAbsent, call, ret);
    SCOPED_TRACE(std::to_string(call) + ", " + std::to_string(ret));
    expect_linearizable(m.h);
  }
}

// insert [0, 10] and erase [5, 15] share [5, 10]: 7 can come and go there
// at once, so an absent answer inside both intervals is fine.
TEST(DistinctMultimap, AValueWhoseOperationsShareAMomentGoesBackToBack) {
  Multimap m;
  m.insert(1, 7, 0, 10);
  m.find(1, 7, 4, 12);
  m.erase(1, 7, 5, 15);
  m.find(1, kAbsent, 6, 8);
  expect_linearizable(m.h);
}

// A find of 7 invoked at 20 keeps 7 live until the erase, past the
// absent answer at [12, 18]; without the find 7 could go at 10.
TEST(DistinctMultimap, FindsStretchASureLifetime) {
  Multimap m;
  const uint32_t i = m.insert(1, 7, 0, 2), e = m.erase(1, 7, 10, 30), x = m.find(1, kAbsent, 12, 18), f = m.find(1, 7, 20, 22);
  expect_violation(m.h, {i, e, x, f});
  Multimap without;
  without.insert(1, 7, 0, 2);
  without.erase(1, 7, 10, 30);
  without.find(1, kAbsent, 12, 18);
  expect_linearizable(without.h);
}

// Absent answers see the key empty before a value's first response.
TEST(DistinctMultimap, AKeptValueIsLiveFromItsFirstResponseOn) {
  Multimap m;
  const uint32_t i = m.insert(1, 7, 0, 2), x = m.find(1, kAbsent, 3, 4);
  expect_violation(m.h, {i, x});
  Multimap before;
  before.insert(1, 7, 3, 8);
  before.find(1, 7, 5, 9);
  before.erase(1, kAbsent, 0, 5);
  expect_linearizable(before.h);
}

TEST(DistinctMultimap, APendingInsertNobodySawIsLeftOut) {
  Multimap m;
  m.pending_insert(1, 7, 0);
  m.find(1, kAbsent, 3, 4);
  m.pending_find(1, 1);
  expect_linearizable(m.h);
  Multimap seen;  // a find saw it: live from that find's response
  const uint32_t i = seen.pending_insert(1, 7, 0), f = seen.find(1, 7, 1, 2), x = seen.find(1, kAbsent, 3, 4);
  expect_violation(seen.h, {i, f, x});
}

TEST(DistinctMultimap, APendingEraseMakesRoomForAnAbsentAnswer) {
  Multimap m;
  m.insert(1, 7, 0, 2);
  const uint32_t p = m.pending_erase(1, 3);
  m.find(1, kAbsent, 5, 6);
  const DistinctValueCheck r = decide(m.h);
  ASSERT_EQ(r.outcome, Outcome::Linearizable) << r.detail;
  EXPECT_NE(std::find(r.order.begin(), r.order.end(), p), r.order.end()) << "the pending erase took effect";
  expect_linearizable(m.h);
}

TEST(DistinctMultimap, APendingEraseInvokedAfterTheAbsentAnswerDoesNotHelp) {
  Multimap m;
  const uint32_t i = m.insert(1, 7, 0, 2), x = m.find(1, kAbsent, 5, 6);
  m.pending_erase(1, 7);
  expect_violation(m.h, {i, x});
}

// A pending erase removes one value: two values live since before the
// absent answer need two.
TEST(DistinctMultimap, PendingErasesAreCounted) {
  Multimap m;
  const uint32_t i7 = m.insert(1, 7, 0, 2), i8 = m.insert(1, 8, 0, 2), p = m.pending_erase(1, 3), x = m.find(1, kAbsent, 5, 6);
  expect_violation(m.h, {i7, i8, p, x});
  m.pending_erase(1, 4);
  expect_linearizable(m.h);
  Multimap later;  // 8 is inserted after the absent answer: one pending erase will do
  later.insert(1, 7, 0, 2);
  later.insert(1, 8, 10, 12);
  later.pending_erase(1, 1);
  later.find(1, kAbsent, 5, 6);
  expect_linearizable(later.h);
}

// At the absent answer's moment 5, a pending erase invoked at 5 can go
// before it, and a value whose first response is 5 can come after it.
TEST(DistinctMultimap, TiesAtTheAbsentAnswersMomentGoTheAnswersWay) {
  Multimap m;
  m.insert(1, 7, 0, 2);
  m.pending_erase(1, 5);
  m.insert(1, 8, 3, 5);
  m.find(1, kAbsent, 5, 5);
  expect_linearizable(m.h);
  Multimap late;  // invoked at 6: too late
  const uint32_t i = late.insert(1, 7, 0, 2), x = late.find(1, kAbsent, 5, 5);
  late.pending_erase(1, 6);
  expect_violation(late.h, {i, x});
}

// A pending erase removes 7 only after 7's last find was invoked. (It
// stays in the evidence: a projection without it would not be evidence.)
TEST(DistinctMultimap, APendingEraseWaitsForTheFindsOfItsValue) {
  Multimap m;
  const uint32_t i = m.insert(1, 7, 0, 2), f = m.find(1, 7, 8, 9), x = m.find(1, kAbsent, 5, 6), p = m.pending_erase(1, 1);
  expect_violation(m.h, {i, f, x, p});
  Multimap wide;  // the absent answer reaches 8: the find, the pending erase, then it
  wide.insert(1, 7, 0, 2);
  wide.find(1, 7, 8, 9);
  wide.find(1, kAbsent, 5, 8);
  wide.pending_erase(1, 1);
  expect_linearizable(wide.h);
}

// Three values due at one moment and three pending erases: whichever value
// the replay's first choice removes, the witness holds.
TEST(DistinctMultimap, PendingErasesDueAtOneMomentRemoveThoseValuesInAnyOrder) {
  Multimap m;
  for (int64_t v : {30, 10, 20}) m.insert(1, v, 0, 2);
  for (uint64_t c : {3, 1, 4}) m.pending_erase(1, c);
  m.erase(1, kAbsent, 5, 6);
  m.insert(1, 40, 7, 8);
  m.find(1, 40, 9, 10);
  m.find(1, kAbsent, 6, 7);
  expect_linearizable(m.h);
}

// 7 is surely live on (1, 10), 8 on (6, 20): together they cover [3, 15].
TEST(DistinctMultimap, ACoveredAbsentAnswerNamesTheValuesThatCoverItInTurn) {
  Multimap m;
  const uint32_t i7 = m.insert(1, 7, 0, 1), e7 = m.erase(1, 7, 10, 11), i8 = m.insert(1, 8, 5, 6), e8 = m.erase(1, 8, 20, 21),
                 x = m.erase(1, kAbsent, 3, 15);
  m.insert(1, 9, 30, 31);  // not involved
  expect_violation(m.h, {i7, e7, i8, e8, x});
  EXPECT_NE(decide(m.h).detail.find("in turn: 7, 8"), std::string::npos) << decide(m.h).detail;
}

TEST(DistinctMultimap, AValueInsertedTwiceUnderOneKeyIsNotItsToDecide) {
  Multimap m;
  m.insert(1, 7, 0, 1);
  m.insert(1, 7, 2, 3);
  m.erase(1, 7, 4, 5);
  m.find(1, 7, 6, 7);
  EXPECT_EQ(decide(m.h).outcome, Outcome::NotApplicable);
  const CheckResult r = check_history(m.h);
  EXPECT_EQ(r.verdict, Verdict::Linearizable);
  EXPECT_NE(r.algorithm.find("wing-gong-lowe"), std::string::npos) << r.algorithm;
  Multimap two_keys;  // one value under two keys is two values
  two_keys.insert(1, 7, 0, 1);
  two_keys.insert(2, 7, 0, 1);
  two_keys.erase(2, 7, 2, 3);
  two_keys.find(1, 7, 4, 5);
  expect_linearizable(two_keys.h);
}

TEST(DistinctMultimap, OtherModelsAreNotItsToDecide) {
  History h;
  h.meta.model = ModelId::Map;
  EXPECT_EQ(decide(h).outcome, Outcome::NotApplicable);
}

// Through the checker: the answer is confirmed, names the key at fault,
// and the other keys do not get in its way.
TEST(DistinctMultimap, TheCheckerNamesTheKeyAtFault) {
  Multimap m;
  for (int64_t key = 0; key < 50; ++key) {
    const uint64_t t = uint64_t(key) * 100;
    m.insert(key, key + 1000, t, t + 2);
    m.find(key, key + 1000, t + 3, t + 9);
    m.erase(key, key + 1000, t + 10, t + 20);
    m.find(key, kAbsent, t + 21, t + 30);
  }
  const CheckResult good = check_history(m.h);
  ASSERT_EQ(good.verdict, Verdict::Linearizable) << good.reason;
  EXPECT_EQ(good.partitions, 50u);
  EXPECT_TRUE(decided_by_distinct_value_checker(good, "multimap")) << good.algorithm;
  m.find(17, kAbsent, 1705, 1707);  // 1017 surely live on (1702, 1710)
  const CheckResult bad = check_history(m.h);
  ASSERT_EQ(bad.verdict, Verdict::Violation) << bad.reason;
  EXPECT_EQ(bad.partitions, 50u);
  EXPECT_TRUE(decided_by_distinct_value_checker(bad, "multimap")) << bad.algorithm;
  ASSERT_TRUE(bad.counterexample.has_value());
  EXPECT_EQ(bad.counterexample->key, 17);
  EXPECT_TRUE(bad.counterexample->minimal);
  // Cut at the absent find's response, before the erase was invoked: the insert and the find.
  ASSERT_EQ(bad.counterexample->history.ops.size(), 2u);
  EXPECT_EQ(bad.counterexample->history.ops[0].data.kind, OpKind::Insert);
  EXPECT_EQ(bad.counterexample->history.ops[1].call, 1705u);
}

TEST(DistinctMultimap, TheCheckerHonoursTheBudgets) {
  Multimap m;
  for (int64_t i = 0; i < 200000; ++i) m.insert(i % 64, i, uint64_t(i), uint64_t(i) + 3);
  CheckOptions expired;
  expired.timeout_seconds = 1e-9;
  const CheckResult late = check_history(m.h, expired);
  EXPECT_EQ(late.verdict, Verdict::Unknown);
  EXPECT_NE(late.reason.find("time budget ran out in the distinct-value multimap checker"), std::string::npos) << late.reason;
  CheckOptions no_memory;
  no_memory.resident_limit_bytes = 1;
  const CheckResult full = check_history(m.h, no_memory);
  EXPECT_EQ(full.verdict, Verdict::Unknown);
  EXPECT_NE(full.reason.find("memory budget ran out in the distinct-value multimap checker"), std::string::npos) << full.reason;
}
