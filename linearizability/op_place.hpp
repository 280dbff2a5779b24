// How reports name who ran an operation, in the words of the run that
// recorded the history.
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

}  // namespace warpcheck
