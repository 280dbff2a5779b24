// A model is its core (name, operations, state, initial, step, ==): models
// with nothing else are checked through check_against_model, every optional
// capability taking its default; and every model of models/ meets the core
// and declares exactly the capabilities listed here.
#include <gtest/gtest.h>

#include <iterator>
#include <string_view>
#include <vector>

#include "linearizability/check_model.hpp"
#include "models/registry.hpp"

namespace warpcheck {
namespace {

// Porcupine's register (models/model_concept.hpp's example): starts at 0.
struct IntRegister {
  static constexpr std::string_view name = "int-register";
  static constexpr OpSpec ops[] = {{OpKind::Write, kArgValue, Returns::Nothing}, {OpKind::Read, 0, Returns::ValueOrAbsent}};
  using State = int64_t;
  static State initial() { return 0; }
  static bool step(State& s, const OpData& op, const int64_t*, uint32_t) {
    if (op.kind == OpKind::Write) return s = op.value, true;
    return op.pending || (op.result_kind == ResultKind::Value && op.result == s);
  }
};

// The same register, one per key: the one capability it declares is used.
struct KeyedIntRegister : IntRegister {
  static constexpr bool partition_by_key = true;
};

// A counter: write(v) adds v, read returns the total. Its values are not
// opaque (a sum needs every one), and its state has no hash.
struct Counter {
  static constexpr std::string_view name = "counter";
  static constexpr OpSpec ops[] = {{OpKind::Write, kArgValue, Returns::Nothing}, {OpKind::Read, 0, Returns::ValueOrAbsent}};
  struct State {
    int64_t total = 0;
    bool operator==(const State&) const = default;
  };
  static State initial() { return {}; }
  static bool step(State& s, const OpData& op, const int64_t*, uint32_t) {
    if (op.kind == OpKind::Write) {
      s.total += op.value;
      return true;
    }
    return op.pending || (op.result_kind == ResultKind::Value && op.result == s.total);
  }
};

struct NoStep {
  static constexpr std::string_view name = "no-step";
  static constexpr OpSpec ops[] = {{OpKind::Read, 0, Returns::ValueOrAbsent}};
  using State = int64_t;
  static State initial() { return 0; }
};
static_assert(SequentialModel<IntRegister> && SequentialModel<Counter> && !SequentialModel<NoStep>);

Operation write(uint64_t id, uint64_t call, uint64_t ret, int64_t value, int64_t key = 0) {
  Operation o;
  o.id = id;
  o.call = call;
  o.ret = ret;
  o.data.kind = OpKind::Write;
  o.data.key = key;
  o.data.value = value;
  return o;
}
Operation read(uint64_t id, uint64_t call, uint64_t ret, int64_t result, int64_t key = 0) {
  Operation o = write(id, call, ret, 0, key);
  o.data.kind = OpKind::Read;
  o.data.value = 0;
  o.data.result_kind = ResultKind::Value;
  o.data.result = result;
  return o;
}
History history_of(std::vector<Operation> ops) {
  History h;
  h.ops = std::move(ops);
  return h;
}

TEST(ModelCore, RegisterWithOnlyItsCoreIsChecked) {
  // write(1) and write(2) overlap; a read then sees 2, later 2 again.
  const History ok = history_of({write(1, 0, 10, 1), write(2, 5, 15, 2), read(3, 20, 30, 2), read(4, 40, 50, 2)});
  const CheckResult lin = check_against_model<IntRegister>(ok);
  EXPECT_EQ(lin.verdict, Verdict::Linearizable) << lin.reason;
  EXPECT_EQ(lin.witness.size(), 4u);

  // A read after write(1) returned sees the register's initial 0: stale.
  const History stale = history_of({write(1, 0, 10, 1), read(2, 20, 30, 0), read(3, 40, 50, 1)});
  const CheckResult viol = check_against_model<IntRegister>(stale);
  ASSERT_EQ(viol.verdict, Verdict::Violation) << viol.reason;
  ASSERT_TRUE(viol.counterexample.has_value());
  // Without leaves_state_unchanged the shrinker drops nothing; the time cut
  // still ends the counterexample at the stale read.
  EXPECT_EQ(viol.counterexample->history.ops.size(), 2u);
}

TEST(ModelCore, DeclaredPartitioningSplitsByKey) {
  const History h = history_of({write(1, 0, 10, 1, /*key=*/7), write(2, 0, 10, 5, /*key=*/8), read(3, 20, 30, 1, 7), read(4, 20, 30, 5, 8)});
  const CheckResult keyed = check_against_model<KeyedIntRegister>(h);
  EXPECT_EQ(keyed.verdict, Verdict::Linearizable) << keyed.reason;
  EXPECT_EQ(keyed.partitions, 2u);
  // One register for every key: the last write wins, so key 7's read is stale.
  const CheckResult whole = check_against_model<IntRegister>(h);
  EXPECT_EQ(whole.verdict, Verdict::Violation) << whole.reason;
  EXPECT_EQ(whole.partitions, 1u);
}

TEST(ModelCore, CounterValuesAreNotRenamed) {
  // add(1) and add(2) overlap a read of 1; a later read sees 3. No result
  // mentions 2: renaming it (opaque values) would refute this history.
  const History ok = history_of({write(1, 0, 10, 1), write(2, 5, 15, 2), read(3, 6, 8, 1), read(4, 20, 30, 3)});
  const CheckResult lin = check_against_model<Counter>(ok);
  EXPECT_EQ(lin.verdict, Verdict::Linearizable) << lin.reason;

  const History lost = history_of({write(1, 0, 10, 1), write(2, 20, 30, 2), read(3, 40, 50, 2)});
  const CheckResult viol = check_against_model<Counter>(lost);
  EXPECT_EQ(viol.verdict, Verdict::Violation) << viol.reason;
}

TEST(ModelCore, DefaultsOfAModelWithoutCapabilities) {
  using T = ModelTraits<Counter>;
  const Counter::State s{5};
  EXPECT_EQ(T::hash(s), 0u) << "no hash anywhere: every state hashes to 0";
  EXPECT_EQ(ModelTraits<IntRegister>::hash(5), std::hash<int64_t>{}(5));
  EXPECT_EQ(T::describe(s), "(the model has no describe)");
  const OpData w = write(1, 0, 1, 3).data;
  EXPECT_EQ(T::choices(s, w, nullptr), 1u);
  EXPECT_FALSE(T::leaves_state_unchanged(w));
  EXPECT_TRUE(T::admits(s, w, nullptr));
  EXPECT_FALSE(T::invertible(w) || T::lazy(w) || T::is_anchor(w) || T::partition_by_key || T::opaque_values);
  EXPECT_EQ(state_heap_bytes(s), 0u);
}

// Every model of models/: the core, and which capabilities it declares.
constexpr unsigned kPartitionable = 1 << 0, kNondeterministic = 1 << 1, kHashable = 1 << 2, kDescribable = 1 << 3,
                   kShrinkable = 1 << 4, kPretested = 1 << 5, kInvertible = 1 << 6, kLazy = 1 << 7, kAnchored = 1 << 8,
                   kOpaqueValues = 1 << 9, kCurrentValue = 1 << 10, kValueStoring = 1 << 11;
template <class M>
constexpr unsigned capabilities() {
  static_assert(SequentialModel<M>);
  return (PartitionableModel<M> ? kPartitionable : 0) | (NondeterministicModel<M> ? kNondeterministic : 0) |
         (HashableModel<M> ? kHashable : 0) | (DescribableModel<M> ? kDescribable : 0) | (ShrinkableModel<M> ? kShrinkable : 0) |
         (PretestedModel<M> ? kPretested : 0) | (InvertibleModel<M> ? kInvertible : 0) | (LazyModel<M> ? kLazy : 0) |
         (AnchoredModel<M> ? kAnchored : 0) | (OpaqueValuesModel<M> ? kOpaqueValues : 0) |
         (CurrentValueModel<M> ? kCurrentValue : 0) | (ValueStoringModel<M> ? kValueStoring : 0);
}
constexpr unsigned kEveryModel = kPartitionable | kDescribable | kShrinkable;  // none hashes itself: their states do
constexpr unsigned kRegisters = kEveryModel | kOpaqueValues | kCurrentValue;
constexpr unsigned kSequences = kEveryModel | kPretested | kAnchored | kCurrentValue | kValueStoring;
static_assert(capabilities<SetModel>() == (kEveryModel | kInvertible));
static_assert(capabilities<MapModel>() == (kEveryModel | kOpaqueValues | kCurrentValue));
static_assert(capabilities<MultimapModel>() == (kEveryModel | kOpaqueValues | kCurrentValue | kNondeterministic | kInvertible));
static_assert(capabilities<PriorityQueueModel>() == (kEveryModel | kPretested | kInvertible | kLazy | kAnchored));
static_assert(capabilities<RegisterModel>() == kRegisters);
static_assert(capabilities<CasRegisterModel>() == kRegisters);
static_assert(capabilities<KvModel>() == kRegisters);
static_assert(capabilities<QueueModel>() == kSequences);
static_assert(capabilities<StackModel>() == kSequences);
static_assert(capabilities<IntRegister>() == 0 && capabilities<Counter>() == 0 && capabilities<KeyedIntRegister>() == kPartitionable);

// The registry holds those models and no other (a new one joins the table).
static_assert(std::size(kModels) == 9);

}  // namespace
}  // namespace warpcheck
