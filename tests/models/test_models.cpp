// The sequential models on their own: known sequences each model accepts
// or refuses, and the invertible steps the search relies on undone exactly.
#include <gtest/gtest.h>

#include <vector>

#include "models/registry.hpp"

namespace warpcheck {
namespace {

OpData op(OpKind kind, int64_t key, ResultKind rk = ResultKind::None, int64_t result = 0, int64_t value = 0) {
  OpData d;
  d.kind = kind;
  d.key = key;
  d.value = value;
  d.result_kind = rk;
  d.result = result;
  return d;
}
OpData yes(OpKind k, int64_t key) { return op(k, key, ResultKind::Bool, 1); }
OpData no(OpKind k, int64_t key) { return op(k, key, ResultKind::Bool, 0); }

// Runs the steps in order; the index of the first refused one, or -1.
template <class M>
int first_refused(const std::vector<OpData>& ops, const int64_t* keys = nullptr) {
  typename M::State s = M::initial();
  for (size_t i = 0; i < ops.size(); ++i)
    if (!M::step(s, ops[i], keys, 0)) return int(i);
  return -1;
}

TEST(Models, SetAcceptsOnlyWhatASetAnswers) {
  using K = OpKind;
  EXPECT_EQ(first_refused<SetModel>({yes(K::Insert, 5), no(K::Insert, 5), yes(K::Contains, 5), yes(K::Erase, 5), no(K::Contains, 5)}), -1);
  EXPECT_EQ(first_refused<SetModel>({yes(K::Insert, 5), yes(K::Insert, 5)}), 1) << "a second insert of a present key fails";
  EXPECT_EQ(first_refused<SetModel>({yes(K::Erase, 1)}), 0) << "an absent key cannot be erased";
  EXPECT_EQ(first_refused<SetModel>({yes(K::Insert, 1), no(K::Contains, 1)}), 1);
}

TEST(Models, MapAndMultimapReturnWhatWasWritten) {
  using K = OpKind;
  const OpData upsert7 = op(K::Upsert, 1, ResultKind::None, 0, 7), upsert8 = op(K::Upsert, 1, ResultKind::None, 0, 8);
  EXPECT_EQ(first_refused<MapModel>({upsert7, upsert8, op(K::Find, 1, ResultKind::Value, 8)}), -1);
  EXPECT_EQ(first_refused<MapModel>({upsert7, upsert8, op(K::Find, 1, ResultKind::Value, 7)}), 2) << "an upsert replaces";
  EXPECT_EQ(first_refused<MapModel>({op(K::Find, 2, ResultKind::Absent)}), -1);
  const OpData ins7 = op(K::Insert, 1, ResultKind::None, 0, 7), ins8 = op(K::Insert, 1, ResultKind::None, 0, 8);
  EXPECT_EQ(first_refused<MultimapModel>({ins7, ins8, op(K::Erase, 1, ResultKind::Value, 7), op(K::Find, 1, ResultKind::Value, 8)}), -1)
      << "a multimap keeps duplicates; an erase removes the value it returns";
  EXPECT_EQ(first_refused<MultimapModel>({ins7, op(K::Erase, 1, ResultKind::Value, 9)}), 1) << "9 was never inserted";
  EXPECT_EQ(first_refused<MultimapModel>({ins7, op(K::Erase, 1, ResultKind::Value, 7), op(K::Find, 1, ResultKind::Value, 7)}), 2);
}

TEST(Models, PriorityQueuePopsTheSmallestKeysOfBatches) {
  const int64_t pool[] = {9, 3, 5, 3, 5};  // a push of {9, 3, 5}; a pop's answer {3, 5}
  OpData push = op(OpKind::Push, 0);
  push.keys_begin = 0;
  push.keys_count = 3;
  OpData pop = op(OpKind::Pop, 0, ResultKind::Keys, 2, /*value (asked)=*/2);
  pop.out_begin = 3;
  pop.out_count = 2;
  EXPECT_EQ(first_refused<PriorityQueueModel>({push, pop}, pool), -1);
  const int64_t wrong[] = {9, 3, 5, 3, 9};  // 9 is not among the two smallest
  EXPECT_EQ(first_refused<PriorityQueueModel>({push, pop}, wrong), 1);
}

TEST(Models, RegistersReadTheLastWrite) {
  using K = OpKind;
  const OpData w1 = op(K::Write, 0, ResultKind::None, 0, 1), w2 = op(K::Write, 0, ResultKind::None, 0, 2);
  EXPECT_EQ(first_refused<RegisterModel>({op(K::Read, 0, ResultKind::Absent), w1, w2, op(K::Read, 0, ResultKind::Value, 2)}), -1);
  EXPECT_EQ(first_refused<RegisterModel>({w1, w2, op(K::Read, 0, ResultKind::Value, 1)}), 2);
  OpData cas = op(K::Cas, 0, ResultKind::Bool, 1, 5);
  cas.expected = 2;
  EXPECT_EQ(first_refused<CasRegisterModel>({w2, cas, op(K::Read, 0, ResultKind::Value, 5)}), -1);
  EXPECT_EQ(first_refused<CasRegisterModel>({w1, cas}), 1) << "a CAS from 2 cannot succeed on 1";
}

TEST(Models, QueueIsFirstInFirstOutAndStackLastInFirstOut) {
  using K = OpKind;
  const OpData enq1 = op(K::Enqueue, 1), enq2 = op(K::Enqueue, 2);
  const OpData deq1 = op(K::Dequeue, 0, ResultKind::Value, 1), deq2 = op(K::Dequeue, 0, ResultKind::Value, 2);
  const OpData deq_null = op(K::Dequeue, 0, ResultKind::Absent);
  EXPECT_EQ(first_refused<QueueModel>({deq_null, enq1, enq2, deq1, deq2, deq_null}), -1);
  EXPECT_EQ(first_refused<QueueModel>({enq1, enq2, deq2}), 2) << "the front is 1";
  EXPECT_EQ(first_refused<QueueModel>({enq1, deq_null}), 1) << "null only when empty";
  const OpData push1 = op(K::Push, 1), push2 = op(K::Push, 2);
  const OpData pop1 = op(K::Pop, 0, ResultKind::Value, 1), pop2 = op(K::Pop, 0, ResultKind::Value, 2);
  const OpData pop_null = op(K::Pop, 0, ResultKind::Absent);
  EXPECT_EQ(first_refused<StackModel>({pop_null, push1, push2, pop2, pop1, pop_null}), -1);
  EXPECT_EQ(first_refused<StackModel>({push1, push2, pop1}), 2) << "the top is 2";
  OpData pending = op(K::Pop, 0);
  pending.pending = true;
  EXPECT_EQ(first_refused<StackModel>({push1, push2, pending, pop1}), -1) << "a pending pop took the top";
}

TEST(Models, QueueBatchesEnterAtOnceAndLeaveFrontFirst) {
  const int64_t pool[] = {1, 2, 3, 1, 2, 3};  // a batch {1, 2, 3}; a dequeue of up to 5 returning {1, 2} then {3}
  OpData enq = op(OpKind::EnqueueBatch, 0);
  enq.keys_count = 3;
  OpData deq_two = op(OpKind::DequeueBatch, 0, ResultKind::Keys, 0, /*n=*/2);
  deq_two.out_begin = 3;
  deq_two.out_count = 2;
  OpData deq_rest = op(OpKind::DequeueBatch, 0, ResultKind::Keys, 0, /*n=*/5);
  deq_rest.out_begin = 5;
  deq_rest.out_count = 1;
  EXPECT_EQ(first_refused<QueueModel>({enq, deq_two, deq_rest}, pool), -1);
  EXPECT_EQ(first_refused<QueueModel>({enq, deq_rest}, pool), 1) << "the front is 1";
  deq_rest.value = 1;
  deq_rest.out_count = 0;
  EXPECT_EQ(first_refused<QueueModel>({enq, deq_two, deq_rest}, pool), 2) << "an empty answer only on an empty queue";
}

TEST(Models, SequenceHashDependsOnOrderAndOnlyOnContents) {
  detail::KeySequence ab, ba, built;
  ab.push_back(1);
  ab.push_back(2);
  ba.push_back(2);
  ba.push_back(1);
  EXPECT_FALSE(ab == ba);
  EXPECT_NE(ab.hash(), ba.hash());
  // The same contents reached another way: 0, 1, 2, minus 0, plus 3, minus 3.
  built.push_front(1);
  built.push_front(0);
  built.push_back(2);
  built.pop_front();
  built.push_back(3);
  built.pop_back();
  EXPECT_TRUE(built == ab);
  EXPECT_EQ(built.hash(), ab.hash());
}

// Invertible steps (the search keeps no state copies for them): step then
// undo gives back the state, hash included.
template <class M>
void expect_undo_restores(const std::vector<OpData>& prefix, const OpData& o, const int64_t* keys = nullptr) {
  typename M::State s = M::initial();
  for (const OpData& p : prefix) ASSERT_TRUE(M::step(s, p, keys, 0));
  ASSERT_TRUE(M::invertible(o));
  const typename M::State before = s;
  ASSERT_TRUE(M::step(s, o, keys, 0));
  M::undo(s, o, keys);
  EXPECT_TRUE(s == before);
  EXPECT_EQ(ModelTraits<M>::hash(s), ModelTraits<M>::hash(before));
}

TEST(Models, InvertibleStepsUndoExactly) {
  using K = OpKind;
  expect_undo_restores<SetModel>({yes(K::Insert, 1)}, yes(K::Insert, 2));
  expect_undo_restores<SetModel>({yes(K::Insert, 1)}, yes(K::Erase, 1));
  expect_undo_restores<SetModel>({yes(K::Insert, 1)}, no(K::Insert, 1));
  expect_undo_restores<MultimapModel>({op(K::Insert, 1, ResultKind::None, 0, 7)}, op(K::Insert, 1, ResultKind::None, 0, 7));
  expect_undo_restores<MultimapModel>({op(K::Insert, 1, ResultKind::None, 0, 7)}, op(K::Erase, 1, ResultKind::Value, 7));
}

}  // namespace
}  // namespace warpcheck
