// The operation vocabulary shared by every sequential model: what an operation
// asked for and what it returned. Timestamps, teams and the on-disk layout
// belong to the history (linearizability/history.hpp), not here.
#pragma once

#include <cstdint>
#include <string_view>

namespace warpcheck {

// New kinds go at the end: the binary format stores a kind by its number.
enum class OpKind : uint8_t {
  Insert, Erase, Contains, Upsert, Find, Push, Pop, Read, Write, Cas, Append,
  Enqueue, Dequeue, EnqueueBatch, DequeueBatch
};
inline constexpr int kOpKindCount = 15;

inline constexpr std::string_view kOpKindNames[kOpKindCount] = {
    "insert", "erase", "contains", "upsert", "find", "push", "pop", "read", "write", "cas", "append",
    "enqueue", "dequeue", "enqueue-batch", "dequeue-batch"};

inline std::string_view op_kind_name(OpKind kind) { return kOpKindNames[static_cast<int>(kind)]; }

inline bool parse_op_kind(std::string_view name, OpKind& out) {
  for (int i = 0; i < kOpKindCount; ++i)
    if (kOpKindNames[i] == name) {
      out = static_cast<OpKind>(i);
      return true;
    }
  return false;
}

// What an operation returned. Absent is a returned "none"/nil (find on a
// missing key, read of an unwritten register); None means no result at all
// (the operation returns nothing, or it is pending).
enum class ResultKind : uint8_t { None, Bool, Value, Absent, Keys };

// Which argument fields an operation of a model takes.
enum ArgBits : uint8_t {
  kArgKey = 1,       // key
  kArgValue = 2,     // value (written / inserted / CAS new value)
  kArgExpected = 4,  // CAS expected value
  kArgKeys = 8,      // batch of keys (priority-queue push, batched enqueue)
  kArgCount = 16,    // how many keys a pop or batched dequeue asks for (stored in `value`)
};

// What a completed operation of a model must return.
enum class Returns : uint8_t { Nothing, Bool, ValueOrAbsent, Keys };

struct OpSpec {
  OpKind kind;
  uint8_t args;
  Returns returns;
};

// Fixed-size description of one operation's arguments and result. Batches
// of keys live in a pool owned by the history; here only their ranges.
struct OpData {
  OpKind kind = OpKind::Insert;
  ResultKind result_kind = ResultKind::None;
  bool pending = false;  // invoked, never returned: may or may not take effect
  int64_t key = 0;
  int64_t value = 0;     // argument value; for pop, the number of keys asked for
  int64_t expected = 0;  // CAS expected value
  int64_t result = 0;    // bool (0/1) or value, per result_kind
  uint32_t keys_begin = 0, keys_count = 0;  // pushed keys, in the key pool
  uint32_t out_begin = 0, out_count = 0;    // popped keys, in the key pool
};

inline bool result_bool(const OpData& op) { return op.result != 0; }

}  // namespace warpcheck
