// A schedule: which lane ran at each step of a simulated run. Printed as a
// compact string so that a failing interleaving can be pasted into a
// command line and replayed exactly.
//
// Format: "wcs1:" then comma-separated runs, each "lane" or "lane*count",
// lanes numbered globally (team * lanes_per_team + lane).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace warpcheck::sim {

using Schedule = std::vector<uint32_t>;

std::string encode_schedule(const Schedule& s);
// Throws std::invalid_argument naming the offending position.
Schedule decode_schedule(std::string_view text);

}  // namespace warpcheck::sim
