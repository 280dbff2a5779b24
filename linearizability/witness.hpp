// Independent validation of a LINEARIZABLE verdict's witness: every completed
// operation appears once (pending ones at most once), the order respects real
// time, and replaying it through the model reproduces every recorded result.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "linearizability/history.hpp"

namespace warpcheck {

std::optional<std::string> witness_error(const History& h, const std::vector<uint32_t>& witness);

}  // namespace warpcheck
