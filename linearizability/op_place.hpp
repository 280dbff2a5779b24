// How reports name who ran an operation and what its values mean, in the
// words of the run that recorded the history.
#pragma once

#include <string>

#include "linearizability/history.hpp"

namespace warpcheck {

// The team and slot of an operation: "warp 3 job slot 51" for a stress
// run (its drivers record a job slot, not a lane: a lane runs several
// operations), "warp 3 lane 7" or "thread 9" for the drop-in recorder (the
// lane its caller gave), "team 2 lane 5" when the history does not say
// what its teams are (generated, imported).
class OpPlaces {
 public:
  explicit OpPlaces(const HistoryMeta& meta);
  std::string operator()(const Operation& op) const;
  // "warp", "block", "thread" or "team": what the history's teams are.
  const std::string& team_word() const { return team_; }

 private:
  std::string team_ = "team", slot_ = "lane";
  bool slot_when_zero_ = true;
};

// The meaning of a 32-bit sentinel word a recorded run returned or passed,
// as GPU structures use them: "EMPTY" (0xFFFFFFFF: an empty slot's key or
// value, a find's not-found), "INF" for a priority queue's key, and
// "TOMBSTONE" (0xFFFFFFFE: a deleted key); empty for any other value and
// for string values. Named wherever they appear: a history's 4294967295 is
// a 32-bit word's all-ones, whoever recorded it.
std::string sentinel_name(const History& h, int64_t value);

}  // namespace warpcheck
