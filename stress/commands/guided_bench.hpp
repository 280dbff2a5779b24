// The guided replay's measurement (warpcheck guided-bench): failing
// simulator runs of a planted bug, each relabeled as a GPU run's history
// would be (no schedule, GPU timestamps, the GPU back-end's configuration),
// reproduced in the simulator by guided tries and by unguided ones (the
// producing run's own scheduler): tries to reproduce, side by side.
#pragma once
#include <cstdint>
#include <ostream>
#include <string>

#include "stress/run/stress_session.hpp"

namespace warpcheck {

// A simulator run's history as a GPU run's would be: its configuration on
// the GPU back-end (the simulator's own options left out; the workload
// kept when it is not the seed's own), its timestamps moved onto a
// nanosecond clock (order and ties kept), and no schedule: what `repro
// --in-simulator` takes. `sim_options` are the producing run's.
History gpu_like_history(const Structure& s, const Options& sim_options, const Ops* workload, const History& sim_history);

struct GuidedBenchOptions {
  uint64_t histories = 20;         // failing runs to measure
  uint64_t first_seed = 1000001;   // where they come from: past every try's schedule seed
  uint64_t max_seeds = 20000;      // the most seeds scanned for them
  uint64_t tries = 100;            // guided and unguided tries a history, schedule seeds 1 to tries
  double check_timeout = 10;       // the checker's seconds a history
  std::string keep_dir;            // each GPU-like history kept as DIR/seed-N/history.bin (empty: none)
};

// `request` is the failing configuration, in the simulator. The table and
// the summary to `out`, progress to `err`. Returns 0, or 2 when fewer
// failing runs than asked were found within max_seeds (said).
int print_guided_bench(const StressRequest& request, const GuidedBenchOptions& o, std::ostream& out, std::ostream& err);

}  // namespace warpcheck
