// The distinct-value register procedure's records (distinct_register.cpp):
// each written value with its writer, the CAS that replaced it and its
// reads; each chain of values with its sure stretch; and a place in the
// witness (a moment, then the order at that moment).
#pragma once

#include <cstdint>

#include "linearizability/distinct_value_check.hpp"

namespace warpcheck::detail::register_chains {

using detail::kNone;
using detail::kNever;
constexpr uint32_t kStart = 0;  // the value index of the unwritten start
constexpr uint32_t kStartTicket = UINT32_MAX;  // a read of the start, until values are numbered

// Where an operation goes at one moment (the argument's order in 3, with
// the failed CASes and the writers the witness moved or took).
enum Rank : uint64_t {
  kBeforeAll, kStartRead, kChainGoingOn, kChainAtOneMoment, kChainStarting, kMovedChain, kSpareWriter, kAfterAll
};

// A place in the witness: a moment, then the order at that moment.
struct Place {
  uint64_t point = 0, order = 0;
  friend bool operator<(const Place& x, const Place& y) { return x.point != y.point ? x.point < y.point : x.order < y.order; }
};

inline Place at(uint64_t point, Rank rank, uint64_t tie = 0) { return {point, uint64_t(rank) << 61 | tie}; }

struct RegisterValue {
  int64_t value = 0;
  uint32_t writer = kNone;    // the write or CAS that wrote it and took effect
  uint32_t from = kNone;      // its writer's CAS replaced this value
  uint32_t succ = kNone;      // the CAS that replaced it
  uint32_t next = kNone;      // the value that CAS wrote
  uint32_t reads_begin = 0, reads_end = 0;  // its completed reads, in sorted_reads_
  uint32_t observer = kNone;  // an operation that saw it (why a pending writer took effect)
  uint32_t chain = kNone;
  uint32_t position = 0;      // in its chain
  uint64_t live_from = kNever, live_to = 0;  // A_e, B_e (the argument's 4)
  uint32_t live_from_op = kNone, live_to_op = kNone;
  Place written;              // its writer's place in the witness
  bool failed_cas_expects = false;  // a failed CAS expected it
};

struct Chain {
  uint32_t head = kNone;  // its first value
  uint64_t a = kNever, b = 0;
  uint32_t a_op = kNone, b_op = kNone;
  uint64_t last_point = 0;  // where its last operation goes
  Place start;              // where its head's writer goes
  bool stretch() const { return a < b; }
  bool pinned = false;      // a failed CAS's place relies on where it is
  bool moved = false;
};

}  // namespace warpcheck::detail::register_chains
