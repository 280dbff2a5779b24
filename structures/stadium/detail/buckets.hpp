// The table's buckets: a key and a value of configurable sizes (keys of 4
// or 8 bytes, values of 4 to 32), in GPU memory or in pinned, mapped host
// memory. A bucket is words of 8 bytes (4 when key and value are 4 bytes
// each): the key in the first, the value in the others, each word one
// store, so a pair of more than one word is never written at once: the
// access bit is what makes it whole to readers.
//
// Values: an operation carries a 64-bit value id (unique in a workload);
// word 0 of the value holds it and every further word a pattern of it, so
// a read of words from two different writes is seen (a torn value) and
// returned marked (kTornValue), never as a value anyone inserted.
#pragma once
#include <cstdint>

#include "structures/core/team.hpp"
#include "structures/stadium/detail/hashing.hpp"

namespace warpcheck::structures::stadium_detail {

inline constexpr int64_t kTornValue = int64_t(1) << 62;

// Workload keys are small; an 8-byte key spreads one over all 64 bits (a
// bijection), so both halves of the stored key matter.
WC_HD WC_FORCE_INLINE uint64_t wide_key(uint64_t k) { return (k * 0x9E3779B97F4A7C15ull) ^ 0x5bd1e9955bd1e995ull; }

WC_HD WC_FORCE_INLINE uint64_t value_word(uint64_t id, uint32_t j) {
  return j == 0 ? id : (id * 0xD6E8FEB86659FD93ull) ^ (0xA0761D6478BD642Full * j);
}

struct bucket_layout {
  void* table = nullptr;
  uint32_t key_bytes = 4, value_bytes = 4;
  bool rehash_in_64_bits = true;  // fix S10 (hashing.hpp, rehash)

  WC_HD uint32_t word_bytes() const { return key_bytes == 4 && value_bytes == 4 ? 4 : 8; }
  WC_HD uint32_t value_words() const { return value_bytes <= word_bytes() ? 1 : value_bytes / word_bytes(); }
  WC_HD uint32_t words() const { return 1 + value_words(); }
  WC_HD uint32_t bucket_bytes() const { return words() * word_bytes(); }
  template <class W>
  WC_HD W* bucket(uint32_t b) const {
    return static_cast<W*>(table) + size_t(b) * words();
  }

  // The key as stored (and hashed).
  WC_HD uint64_t stored_key(int64_t k) const { return key_bytes == 4 ? uint64_t(uint32_t(k)) : wide_key(uint64_t(k)); }
  WC_HD uint32_t first_bucket(uint64_t key, uint32_t n) const {
    return key_bytes == 4 ? init_hash(uint32_t(key), n) : init_hash(key, n);
  }
  WC_HD uint32_t next_bucket(uint32_t at, uint64_t key, uint32_t n) const {
    return key_bytes == 4 ? rehash(at, uint32_t(key), n, rehash_in_64_bits) : rehash(at, key, n, rehash_in_64_bits);
  }
  WC_HD uint32_t info(uint64_t key, uint32_t bits) const {
    return key_bytes == 4 ? info_of(uint32_t(key), bits) : info_of(key, bits);
  }

  // ---- accesses through a team (table scope: gpu, or system for a host
  // table; order: weak, the printed plain accesses, or relaxed) ----
  template <class Team>
  WC_HD uint64_t load_key(Team& t, uint32_t b, core::order o, core::scope s) const {
    if (word_bytes() == 4) return t.load(bucket<uint32_t>(b), o, s);
    return t.load(bucket<uint64_t>(b), o, s);
  }
  // The value's words in order, decoded: the id, or kTornValue | id when
  // its words disagree.
  template <class Team>
  WC_HD int64_t load_value(Team& t, uint32_t b, core::order o, core::scope s) const {
    return word_bytes() == 4 ? load_value_words<uint32_t>(t, b, o, s) : load_value_words<uint64_t>(t, b, o, s);
  }
  // Key first, then the value's words: one store each.
  template <class Team>
  WC_HD void store_pair(Team& t, uint32_t b, uint64_t key, uint64_t id, core::order o, core::scope s) const {
    if (word_bytes() == 4) store_words<uint32_t>(t, b, key, id, o, s);
    else store_words<uint64_t>(t, b, key, id, o, s);
  }

 private:
  template <class W, class Team>
  WC_HD int64_t load_value_words(Team& t, uint32_t b, core::order o, core::scope s) const {
    const W* w = bucket<W>(b) + 1;
    const W id = t.load(w, o, s);
    bool whole = true;
    for (uint32_t j = 1; j < value_words(); ++j) whole = (t.load(w + j, o, s) == W(value_word(id, j))) && whole;
    return whole ? int64_t(uint64_t(id)) : (kTornValue | int64_t(uint32_t(id)));
  }
  template <class W, class Team>
  WC_HD void store_words(Team& t, uint32_t b, uint64_t key, uint64_t id, core::order o, core::scope s) const {
    W* w = bucket<W>(b);
    t.store(w, W(key), o, s);
    for (uint32_t j = 0; j < value_words(); ++j) t.store(w + 1 + j, W(value_word(id, j)), o, s);
  }
};

}  // namespace warpcheck::structures::stadium_detail
