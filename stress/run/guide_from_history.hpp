// A GPU run's history as the guided scheduler's guide (structures/core/sim/
// guidance.hpp): each operation's stream (team), its place in the stream,
// its job id, interval and result.
#pragma once
#include <memory>

#include "linearizability/history.hpp"
#include "structures/core/sim/guidance.hpp"

namespace warpcheck {

// A history's operations as a guide: each one's stream (team), its place in
// the stream (its order among the team's operations in the history), its
// job id, interval and result.
std::shared_ptr<const sim::Guide> guide_from_history(const History& h);

}  // namespace warpcheck
