// The greedy presence order (linearizability/detail/presence_order.hpp) on
// the shapes a warp batch gives a map key: blind writes (upserts) and
// erases that share one stamp pair. Each order it gives is replayed.
#include <gtest/gtest.h>

#include <numeric>

#include "linearizability/detail/presence_order.hpp"
#include "linearizability/witness.hpp"

using namespace warpcheck;

namespace {

Operation map_op(OpKind kind, int64_t value, bool result, uint64_t call, uint64_t ret) {
  static uint64_t next_id = 0;
  Operation o;
  o.id = next_id++;
  o.call = call, o.ret = ret;
  o.data.kind = kind;
  o.data.value = kind == OpKind::Erase ? 0 : value;
  o.data.result_kind = kind == OpKind::Upsert ? ResultKind::None : ResultKind::Bool;
  o.data.result = result;
  return o;
}

// Orders the whole history greedily; the order must replay.
void expect_ordered(const History& h) {
  std::vector<uint32_t> ops(h.ops.size()), order;
  std::iota(ops.begin(), ops.end(), 0u);
  detail::PresenceOrder greedy;
  const std::optional<std::string> why = greedy.find(h, ops, order);
  ASSERT_FALSE(why) << *why;
  EXPECT_FALSE(witness_error(h, order)) << *witness_error(h, order);
}

}  // namespace

// A batch of two upserts and two successful erases while the key is
// present: one upsert must go between the erases. Put back as nothing
// before the batch's flips (as the greedy once did), none was left for it:
// 4 of 20 slab_hash map histories of 2,048 warps stamped per warp batch
// were UNKNOWN on an H200 for this.
TEST(PresenceOrder, ABatchsUpsertsTakeTheKeyUpBetweenItsErases) {
  History h;
  h.meta.model = ModelId::Map;
  h.ops = {map_op(OpKind::Upsert, 1, false, 1, 10), map_op(OpKind::Upsert, 2, false, 11, 20), map_op(OpKind::Upsert, 3, false, 11, 20),
           map_op(OpKind::Erase, 0, true, 11, 20), map_op(OpKind::Erase, 0, true, 11, 20)};
  expect_ordered(h);
}

// A batch that inserts, erases and upserts, then a later erase: the
// upsert must be the batch's last word (taken eagerly), or the later
// erase finds the key absent.
TEST(PresenceOrder, AnUpsertLeftLastKeepsTheKeyForALaterErase) {
  History h;
  h.meta.model = ModelId::Map;
  h.ops = {map_op(OpKind::Insert, 5, true, 1, 10), map_op(OpKind::Erase, 0, true, 1, 10), map_op(OpKind::Upsert, 6, false, 1, 10),
           map_op(OpKind::Erase, 0, true, 11, 20)};
  expect_ordered(h);
}

// Not linearizable, so no order: two erases after one upsert.
TEST(PresenceOrder, NoOrderWhereNoneExists) {
  History h;
  h.meta.model = ModelId::Map;
  h.ops = {map_op(OpKind::Upsert, 1, false, 1, 10), map_op(OpKind::Erase, 0, true, 11, 20), map_op(OpKind::Erase, 0, true, 11, 20)};
  std::vector<uint32_t> ops = {0, 1, 2}, order;
  detail::PresenceOrder greedy;
  EXPECT_TRUE(greedy.find(h, ops, order).has_value());
}
