// Open stretches of time (from, to), each with an owner, during which the
// structure surely holds something (a value surely in the queue, on the
// stack, live under a key); the moments inside none of them are free. The
// distinct-value procedures put each answer that saw the structure empty
// at the first free moment of its interval, and when there is none, name
// the stretches that cover the interval in turn: the evidence.
//
// Times are the history's integer stamps and stretches are open, so two
// stretches that only touch, (a, b) and (b, c), leave b free; a free
// moment, when there is one, is found at an interval's start or at a
// stretch's end, so it is a stamp too.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "linearizability/history.hpp"

namespace warpcheck::detail {

class StretchCover {
 public:
  // Empty stretches (from >= to) cover nothing and are not kept.
  void add(uint64_t from, uint64_t to, uint32_t owner) {
    if (from < to) stretches_.push_back({from, to, owner});
  }

  // Call once every stretch is added, before the queries.
  void seal() {
    // Stable: among stretches that start together, covering() names the first added.
    std::stable_sort(stretches_.begin(), stretches_.end(), [](const Stretch& a, const Stretch& b) { return a.from < b.from; });
    merged_.clear();
    for (const Stretch& s : stretches_) {
      if (!merged_.empty() && s.from < merged_.back().to) merged_.back().to = std::max(merged_.back().to, s.to);
      else merged_.push_back({s.from, s.to, 0});
    }
  }

  void clear() {
    stretches_.clear();
    merged_.clear();
  }

  // The first free moment of [c, r], if any.
  std::optional<uint64_t> first_free(uint64_t c, uint64_t r) const {
    auto after = std::upper_bound(merged_.begin(), merged_.end(), c, [](uint64_t t, const Stretch& m) { return t <= m.from; });
    uint64_t t = c;
    if (after != merged_.begin() && c < std::prev(after)->to) t = std::prev(after)->to;
    if (t > r) return std::nullopt;
    return t;
  }

  // The owners of stretches that cover [c, r] one after the other (each
  // reaching furthest from where the last one ended), when first_free
  // found no moment there; empty if they do not (which first_free rules out).
  std::vector<uint32_t> covering(uint64_t c, uint64_t r) const {
    std::vector<uint32_t> chain;
    uint64_t t = c;
    size_t next = 0;
    const Stretch* best = nullptr;
    while (t <= r) {
      for (; next < stretches_.size() && stretches_[next].from < t; ++next)
        if (!best || stretches_[next].to > best->to) best = &stretches_[next];
      if (!best || best->to <= t) return {};
      chain.push_back(best->owner);
      t = best->to;
      if (t == kPendingTime) break;
    }
    return chain;
  }

 private:
  struct Stretch {
    uint64_t from, to;
    uint32_t owner;
  };
  std::vector<Stretch> stretches_;  // by start, once sealed
  std::vector<Stretch> merged_;     // their union, as disjoint stretches (owners unused)
};

}  // namespace warpcheck::detail
