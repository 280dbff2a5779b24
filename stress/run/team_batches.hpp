// `--record batch`: a history stamped the way a warp-batch recorder stamps
// it (structures/core/recorder/batch_log.hpp): one invocation and one
// response for a warp's whole round, so every lane's operation of a round
// shares them. GPU histories are recorded this way where per-operation
// stamps cost too much, and that is where the checker meets hundreds of
// overlapping operations a key; stress runs can be checked that way too.
#pragma once

#include "linearizability/history.hpp"
#include "stress/seam/options.hpp"

namespace warpcheck {

// Each team's k-th operations (the k-th of each of its lanes, in each
// launch) take the earliest invocation among them, and the completed ones
// the latest response among the completed. Every operation's interval
// only widens, so the batched history is linearizable whenever the
// history is, and a violation of it is a violation of the history (and at
// most as wide as a batch recorder's own stamps, which hold all of these).
void stamp_by_team_batch(History& h);

// A run's history stamped as its --record option says.
inline void stamp_as_recorded(const Options& o, History& h) {
  if (o.text("record") == "batch") stamp_by_team_batch(h);
}

}  // namespace warpcheck
