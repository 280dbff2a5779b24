// The GPU-friendly skiplist's invariants over its memory at rest (host
// memory: after a simulator or threads run, or copied back from the GPU;
// thesis section 4.3, and what a finished run leaves): each level's live
// chunks sorted, packed and within their max, no key in two of them, each
// max below the next chunk's keys; the last chunk of a level live, with max
// and next infinity; every chunk allocated reachable on its level unless a
// zombie, and on one level only; no lock held; every down pointer reaching,
// laterally, the chunk that encloses its key one level down, which holds
// it; a level's counter zero exactly when it holds no key. The messages of
// those broken, at most 20; empty when they hold.
#pragma once
#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "structures/gfsl/gfsl.hpp"

namespace warpcheck::structures {

namespace detail_gfsl {

// A chunk's entries as host memory holds them.
struct ChunkView {
  const uint64_t* e;
  uint32_t n;
  uint32_t key(uint32_t i) const { return gfsl_layout::key_of(e[i]); }
  uint32_t max() const { return gfsl_layout::key_of(e[n - 2]); }
  uint32_t next() const { return gfsl_layout::value_of(e[n - 2]); }
  uint64_t lock() const { return e[n - 1]; }
  bool zombie() const { return gfsl_layout::owner_of(lock()) == gfsl_layout::kZombieOwner; }
  uint32_t count() const {
    uint32_t k = 0;
    while (k < n - 2 && key(k) != gfsl_layout::kEmptyKey) ++k;
    return k;
  }
};

}  // namespace detail_gfsl

inline std::vector<std::string> gfsl_invariants(const gfsl& s) {
  namespace layout = gfsl_layout;
  using detail_gfsl::ChunkView;
  std::vector<std::string> bad;
  auto note = [&](std::string m) {
    if (bad.size() < 20) bad.push_back(std::move(m));
  };
  const uint32_t n = s.chunk, levels = s.levels();
  const uint32_t allocated = std::min(*s.next_free, s.pool_chunks);
  auto chunk = [&](uint32_t i) { return ChunkView{s.entry_at(i, 0), n}; };
  auto name = [](uint32_t i) { return "chunk " + std::to_string(i); };
  std::vector<int> level_of(s.pool_chunks, -1);
  // Each level's chunks in order (zombies included), and its live ones.
  std::vector<std::vector<uint32_t>> order(levels), live(levels);
  for (uint32_t l = 0; l < levels; ++l) {
    for (uint32_t c = s.heads[l], hops = 0; c != layout::kNil; c = chunk(c).next(), ++hops) {
      if (c >= allocated || hops > allocated) {
        note("level " + std::to_string(l) + ": a link to an unallocated chunk, or a cycle");
        break;
      }
      if (level_of[c] >= 0) {
        note(name(c) + " is reachable on levels " + std::to_string(level_of[c]) + " and " + std::to_string(l));
        break;
      }
      level_of[c] = int(l);
      order[l].push_back(c);
      if (!chunk(c).zombie()) live[l].push_back(c);
    }
    if (order[l].empty()) continue;
    const ChunkView last = chunk(order[l].back());
    if (last.zombie()) note("level " + std::to_string(l) + ": its last " + name(order[l].back()) + " is a zombie");
    if (last.max() != layout::kEmptyKey) note("level " + std::to_string(l) + ": its last chunk's max is not infinity");
  }
  for (uint32_t c = 0; c < allocated; ++c)
    if (level_of[c] < 0 && !chunk(c).zombie()) note(name(c) + " is allocated, not a zombie, and on no level");
  // Lateral order, packing, locks.
  std::vector<std::map<uint32_t, std::pair<uint32_t, uint32_t>>> where(levels);  // level: key -> (chunk, value)
  for (uint32_t l = 0; l < levels; ++l) {
    bool first_key = true;
    uint32_t previous = 0, previous_max = 0;
    for (size_t i = 0; i < live[l].size(); ++i) {
      const uint32_t c = live[l][i];
      const ChunkView v = chunk(c);
      if (layout::owner_of(v.lock()) != 0) note(name(c) + " (level " + std::to_string(l) + ") is left locked by team " +
                                                std::to_string(layout::owner_of(v.lock()) - 1));
      const uint32_t count = v.count();
      for (uint32_t j = count; j < n - 2; ++j)
        if (v.key(j) != layout::kEmptyKey) note(name(c) + ": a key after an EMPTY entry (not packed)");
      for (uint32_t j = 0; j < count; ++j) {
        const uint32_t k = v.key(j);
        if (!first_key && k <= previous)
          note("level " + std::to_string(l) + ": key " + std::to_string(k) + " in " + name(c) + " is not above " + std::to_string(previous) +
               " before it (unsorted, or in two live chunks)");
        if (k > v.max()) note(name(c) + ": key " + std::to_string(k) + " above the chunk's max " + std::to_string(v.max()));
        if (i > 0 && j == 0 && k <= previous_max)
          note(name(c) + ": its first key " + std::to_string(k) + " is not above the previous live chunk's max " + std::to_string(previous_max));
        where[l][k] = {c, layout::value_of(v.e[j])};
        previous = k;
        first_key = false;
      }
      previous_max = v.max();
    }
    // The level's counter: zero exactly when it holds no key but minus infinity.
    if (l > 0) {
      const bool holds = where[l].size() > (where[l].count(layout::kNegInfKey) ? 1u : 0u);
      if (holds != (s.level_chunks[l] != 0))
        note("level " + std::to_string(l) + ": counter " + std::to_string(s.level_chunks[l]) + " but it " +
             (holds ? "holds keys" : "holds none"));
    }
  }
  // Down pointers: from each upper entry, lateral steps one level down
  // reach the chunk that encloses (and holds) its key, through no zombie first.
  for (uint32_t l = 1; l < levels; ++l) {
    for (const auto& [k, at] : where[l]) {
      const uint32_t below = at.second;
      // A zombie (even one unlinked from its level) is a valid step: its
      // NEXT leads on, and merges do not guarantee that no down pointer is
      // left on one (finding G5).
      if (below >= allocated || (level_of[below] != int(l - 1) && !chunk(below).zombie())) {
        note("level " + std::to_string(l) + ": key " + std::to_string(k) + "'s down pointer leads to " + name(below) +
             ", not a chunk of level " + std::to_string(l - 1));
        continue;
      }
      const auto held = where[l - 1].find(k);
      if (held == where[l - 1].end()) {
        note("level " + std::to_string(l) + ": key " + std::to_string(k) + " is not in level " + std::to_string(l - 1));
        continue;
      }
      bool reached = false;
      for (uint32_t c = below, hops = 0; c != layout::kNil && hops <= allocated; c = chunk(c).next(), ++hops)
        if (c == held->second.first) {
          reached = true;
          break;
        }
      if (!reached)
        note("level " + std::to_string(l) + ": key " + std::to_string(k) + "'s down pointer, " + name(below) +
             ", does not reach laterally the chunk holding it below, " + name(held->second.first));
    }
  }
  return bad;
}

}  // namespace warpcheck::structures
