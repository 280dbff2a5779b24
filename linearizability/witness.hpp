// Independent validation of an order claimed to linearize a history (a
// verdict's witness, or the order of recorded linearization points): every
// completed operation appears once (pending ones at most once), the order
// respects real time, and replaying it through the model reproduces every
// recorded result.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "linearizability/history.hpp"

namespace warpcheck {

std::optional<std::string> witness_error(const History& h, const std::vector<uint32_t>& witness);

}  // namespace warpcheck
