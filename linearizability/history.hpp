// A concurrent history: one fixed-size record per operation, batches of keys
// in a shared pool, and the producing run's metadata.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "linearizability/failure_record.hpp"
#include "models/registry.hpp"

namespace warpcheck {

// Response time of an operation that never returned.
inline constexpr uint64_t kPendingTime = std::numeric_limits<uint64_t>::max();

struct Operation {
  uint64_t id = 0;
  uint64_t call = 0;            // invocation timestamp
  uint64_t ret = kPendingTime;  // response timestamp; kPendingTime when pending
  uint64_t hint = 0;            // linearization-point hint, when has_hint
  uint32_t team = 0;            // warp or block that ran it
  uint32_t lane = 0;            // lane or job id inside the team
  uint32_t launch = 0;          // kernel launch
  bool has_hint = false;
  OpData data;

  bool pending() const { return data.pending; }
};

struct HistoryMeta {
  ModelId model = ModelId::Set;
  uint64_t seed = 0;
  std::string config;       // the producing run's configuration, a JSON object, or empty
  bool incomplete = false;  // a log buffer overflowed: records were lost
  // Values (written, expected, read) are strings: indices into
  // History::strings (models/base/value_strings.hpp).
  bool string_values = false;
  // What failed in the run that recorded it (an oracle other than the
  // checker, or the checker itself), when the run failed.
  std::optional<FailureRecord> failure;
};

struct History {
  HistoryMeta meta;
  std::vector<Operation> ops;
  std::vector<int64_t> key_pool;
  std::vector<std::string> strings;  // string values, when meta.string_values


  std::span<const int64_t> pushed_keys(const Operation& op) const {
    return {key_pool.data() + op.data.keys_begin, op.data.keys_count};
  }
  std::span<const int64_t> popped_keys(const Operation& op) const {
    return {key_pool.data() + op.data.out_begin, op.data.out_count};
  }
  const ModelInfo& model() const { return model_info(meta.model); }
};

// Bad input: the message names the file and position. Tools exit with 3.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Why `op` is not a well-formed operation of `model`, or nullopt when it is.
// Checks the op kind, the argument fields it takes, its result, its times
// and its key ranges inside a pool of `pool_size` keys.
std::optional<std::string> operation_error(const ModelInfo& model, const Operation& op, size_t pool_size);

// Zeroes the fields `op` does not use under `model`, the canonical form that
// operation_error() requires (so a binary record has no meaningless bits and
// converting between formats is exact). For producers: generators, recorders.
void clear_unused_fields(const ModelInfo& model, Operation& op);

// The canonical key-pool layout: operations' batches in operation order
// (pushed keys, then popped keys), back to back, with no unused keys. It
// makes binary -> JSON lines -> binary exact. Returns the first operation
// out of place, with why, or nullopt.
std::optional<std::string> key_pool_error(const History& h);
// Rewrites the pool into that layout (after dropping or editing operations).
void compact_key_pool(History& h);

// The canonical string table: each string once, in order of first use
// (operations in order; expected value, value, result), none unused, and
// every value field of a string history inside it; no string values, and
// no append, otherwise. Returns why not, or nullopt.
std::optional<std::string> string_table_error(const History& h);
// Rewrites the table into that form (after dropping operations).
void compact_strings(History& h);

// The history of the operations `ops` (history indices), in that order,
// with their ids, the metadata, and a canonical key pool and string table
// of their own.
History restrict_history(const History& h, std::span<const uint32_t> ops);

// Index of the first operation whose id repeats an earlier one, if any.
std::optional<size_t> first_duplicate_id(const std::vector<Operation>& ops);

// Why the history's failure record cannot be a run's (failure_record.hpp), or nullopt.
std::optional<std::string> failure_error(const History& h);

// The meaning of a 32-bit sentinel word a recorded run returned or passed,
// as GPU structures use them: "EMPTY" (0xFFFFFFFF: an empty slot's key or
// value, a find's not-found), "INF" for a priority queue's key, and
// "TOMBSTONE" (0xFFFFFFFE: a deleted key); empty for any other value and
// for string values. Named wherever they appear: a history's 4294967295 is
// a 32-bit word's all-ones, whoever recorded it.
std::string sentinel_name(const History& h, int64_t value);

// One-line description of an operation: "insert(17) -> true".
std::string describe_operation(const History& h, const Operation& op);

}  // namespace warpcheck
