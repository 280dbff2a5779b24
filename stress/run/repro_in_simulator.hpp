// warpcheck repro DIR/history.bin --in-simulator: a GPU run's failure
// reproduced in the simulator under schedules guided by its history's
// order (stress/run/guided_replay.hpp), written as a seed and a schedule that
// replay it bit for bit.
#pragma once
#include <ostream>

#include "stress/run/stress_request.hpp"

namespace warpcheck {

// The GPU run's history (the request repro made of it) under guided
// tries, schedule seeds 1 to --tries; on success the failure's files
// (--out, else DIR/in-simulator), its seed and schedule, and both replays
// (the seed alone, the seed with its schedule) checked bit for bit on the
// spot. Returns the exit code: 1 when a try failed as the GPU run did (a
// failure, as every repro of one), 2 when none did; throws
// std::invalid_argument for what cannot be tried (not a GPU run's history,
// a shape past the simulator's).
int run_repro_in_simulator(const StressRequest& gpu_request, std::ostream& out, std::ostream& err);

}  // namespace warpcheck
