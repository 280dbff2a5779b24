// The median of a handful of measurements (kernel times, seconds to a first
// finding) as the benchmark tables print it: the upper middle one, and 0 for
// none, so that a column with no runs still prints.
#pragma once

#include <algorithm>
#include <vector>

namespace warpcheck::detail {

template <class T>
T median(std::vector<T> values) {
  std::sort(values.begin(), values.end());
  return values.empty() ? T(0) : values[values.size() / 2];
}

}  // namespace warpcheck::detail
