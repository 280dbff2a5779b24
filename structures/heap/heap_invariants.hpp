// The generalized heap's invariants over its memory at rest (host memory:
// after a simulator run, or copied back from the GPU): every lock released;
// `last` within the capacity and the phase gate closed; nodes 1..last full
// and sorted, the others empty; the generalized heap property; the partial
// buffer sorted, short, and not below the root (property 3). The messages
// of those broken, at most 20; empty when they hold. `held`, when given,
// gets the keys the heap holds (the nodes in use, then the partial
// buffer): the adapter counts them against the history's pushes and pops.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "structures/heap/heap_layout.hpp"

namespace warpcheck::structures {

inline std::vector<std::string> heap_invariants(const generalized_heap& h, std::vector<uint32_t>* held = nullptr) {
  std::vector<std::string> bad;
  auto note = [&](std::string s) {
    if (bad.size() < 20) bad.push_back(std::move(s));
  };
  auto node = [&](uint32_t i) { return h.keys + size_t(i) * h.k; };
  const uint32_t size = *h.partial_size, last = *h.last;
  for (uint32_t i = 1; i < h.nodes; ++i)
    if (h.states[i] != node_state::avail)
      note("node " + std::to_string(i) + " is left in state " + std::to_string(h.states[i]) + " (not AVAIL)");
  if (last > h.capacity) note("last = " + std::to_string(last) + " is past the capacity");
  if (*h.gate != 0) note("the phase gate is left at " + std::to_string(*h.gate) + " (an operation still inside)");
  std::vector<bool> used(h.nodes, false);
  for (uint32_t n = 1; n <= std::min(last, h.capacity); ++n) used[h.node_of(n)] = true;
  for (uint32_t i = 1; i < h.nodes; ++i) {
    const uint32_t* b = node(i);
    if (!used[i]) {
      if (std::any_of(b, b + h.k, [](uint32_t v) { return v != generalized_heap::kEmptyKey; }))
        note("node " + std::to_string(i) + " is not in use but holds keys");
      continue;
    }
    if (!std::is_sorted(b, b + h.k)) note("node " + std::to_string(i) + " is not sorted");
    if (std::count(b, b + h.k, generalized_heap::kEmptyKey))
      note("node " + std::to_string(i) + " is in use but has empty slots");
    if (held) held->insert(held->end(), b, b + h.k);
    if (i > 1 && used[i / 2] && node(i)[0] < node(i / 2)[h.k - 1])
      note("heap property: node " + std::to_string(i) + "'s smallest key " + std::to_string(node(i)[0]) +
           " is below its parent " + std::to_string(i / 2) + "'s largest " + std::to_string(node(i / 2)[h.k - 1]));
  }
  if (size >= h.k) note("the partial buffer holds " + std::to_string(size) + " keys (at most k - 1)");
  const uint32_t* p = h.partial;
  const uint32_t psize = std::min(size, h.k);
  if (!std::is_sorted(p, p + psize)) note("the partial buffer is not sorted");
  if (last > 0 && psize > 0 && p[0] < node(1)[h.k - 1])
    note("property 3: the partial buffer's smallest key " + std::to_string(p[0]) + " is below the root's largest " +
         std::to_string(node(1)[h.k - 1]));
  if (held) held->insert(held->end(), p, p + psize);
  return bad;
}

}  // namespace warpcheck::structures
