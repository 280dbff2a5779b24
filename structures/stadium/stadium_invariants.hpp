// Stadium hashing's invariants over its table at rest (host memory: after
// a simulator run, or copied back from the GPU): no ticket left held
// (inserting or claimed); every live ticket's info bits those of its
// bucket's key, and its value whole; each live pair reachable by a
// retrieval along its key's chain. The messages of those broken, at most
// 20; empty when they hold. `name` says a stored key in them; `pairs`, when
// given, gets the pairs the table holds, for the adapter's count against
// the history.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "structures/stadium/stadium_hash.hpp"

namespace warpcheck::structures {

namespace stadium_host {

// A bucket as it is in host memory: its key, and its value (the id, or
// kTornValue | id when its words disagree).
struct host_pair {
  uint64_t key;
  int64_t value;
};

template <class W>
inline host_pair read_pair(const stadium_hash& s, uint32_t b) {
  const W* w = s.table.bucket<W>(b);
  const W id = w[1];
  bool whole = true;
  for (uint32_t j = 1; j < s.table.value_words(); ++j) whole = whole && w[1 + j] == W(stadium_detail::value_word(id, j));
  return {uint64_t(w[0]), whole ? int64_t(uint64_t(id)) : (stadium_detail::kTornValue | int64_t(uint32_t(id)))};
}
inline host_pair read_pair(const stadium_hash& s, uint32_t b) {
  return s.table.word_bytes() == 4 ? read_pair<uint32_t>(s, b) : read_pair<uint64_t>(s, b);
}

// The ticket slot of bucket b.
inline uint32_t slot_at(const stadium_hash& s, uint32_t b) {
  const auto r = s.board.at(b);
  return s.board.slot_of(*r.word, r);
}

}  // namespace stadium_host

struct stadium_pairs {
  std::map<std::pair<uint64_t, int64_t>, int64_t> live;            // (stored key, value) -> copies under live tickets
  std::map<std::pair<uint64_t, int64_t>, uint32_t> available_over;  // a bucket holding a pair, under an available ticket
  uint64_t live_count = 0;
};

inline std::vector<std::string> stadium_invariants(const stadium_hash& s, const std::function<std::string(uint64_t)>& name,
                                                   stadium_pairs* pairs = nullptr) {
  using stadium_detail::ticket_state;
  using stadium_host::host_pair;
  using stadium_host::read_pair;
  using stadium_host::slot_at;
  std::vector<std::string> bad;
  auto note = [&](std::string m) {
    if (bad.size() < 20) bad.push_back(std::move(m));
  };
  const auto& board = s.board;
  for (uint32_t b = 0; b < s.buckets; ++b) {
    const uint32_t slot = slot_at(s, b);
    const ticket_state st = board.state(slot);
    if (st == ticket_state::inserting || st == ticket_state::claimed) {
      note("bucket " + std::to_string(b) + "'s ticket is left " + (st == ticket_state::inserting ? "inserting" : "claimed"));
      continue;
    }
    const host_pair p = read_pair(s, b);
    if (st != ticket_state::live) {
      if (pairs) pairs->available_over[{p.key, p.value}] = b;
      continue;
    }
    if (pairs) {
      ++pairs->live_count;
      ++pairs->live[{p.key, p.value}];
    }
    if (board.info_field(slot) != s.table.info(p.key, board.info_bits()))
      note("bucket " + std::to_string(b) + ": the ticket's info bits do not match its " + name(p.key));
    if (p.value & stadium_detail::kTornValue)
      note("bucket " + std::to_string(b) + " (" + name(p.key) + ") holds a torn value");
    // Reachable: no lookup stops before this bucket on its key's chain
    // (as printed, with deletions in the mix, retrievals stop nowhere).
    const bool tombstones = s.fixed(stadium_fix::tombstones);
    uint32_t at = s.table.first_bucket(p.key, s.buckets);
    for (uint32_t i = 0; i < s.buckets && at != b; ++i, at = s.table.next_bucket(at, p.key, s.buckets)) {
      const ticket_state there = board.state(slot_at(s, at));
      const bool stops = tombstones ? board.info_bits() > 0 && there == ticket_state::never_used
                                    : !s.deletes && (there == ticket_state::never_used || there == ticket_state::tombstone);
      if (stops) {
        note("bucket " + std::to_string(b) + " (" + name(p.key) + ") is past an available ticket at bucket " + std::to_string(at) +
             " on its chain: a retrieval stops there");
        break;
      }
    }
  }
  return bad;
}

}  // namespace warpcheck::structures
