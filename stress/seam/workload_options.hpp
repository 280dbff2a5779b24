// The options of warp-cooperative workloads (every lane of a team holds a
// queue of operations; core::run_team_ops), declared once for the
// structures that run that way.
#pragma once
#include <string>

#include "stress/seam/options.hpp"
#include "stress/seam/workload.hpp"

namespace warpcheck {

// --teams, --ops-per-lane, --keys, --mix and the contention knobs, and the
// workload they give.
OptionTable warp_workload_options(const std::string& default_mix = "insert=50,erase=20,contains=30",
                                  uint64_t max_keys = uint64_t(1) << 32);
WarpWorkload warp_workload(const Options& o);

// An --mix value's check (parse_op_mix's message).
void check_op_mix(const std::string& text);

}  // namespace warpcheck
