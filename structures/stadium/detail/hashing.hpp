// Stadium hashing's hash functions (paper, Figure 5): the generalized hash
// (reversible rounds of shift-xor and multiply), the initial hash mapped to
// the table by a high multiply instead of a modulo, and double hashing's
// rehash, whose step depends on the key only. With a prime table size every
// step is coprime to it, so N probes visit every bucket once.
#pragma once
#include <cstdint>

#include "structures/core/config.hpp"

namespace warpcheck::structures::stadium_detail {

// The multiplication operands of Figure 5 (lines 8 and 12), and ours for the
// ticket info bits ("a form of generalized hash function with a different
// multiplication operand", section III-B; the paper does not print it).
inline constexpr uint32_t kInitMul = 0xE9D58A6Bu;
inline constexpr uint32_t kRehashMul = 0x6E5B9D8Au;
inline constexpr uint32_t kInfoMul = 0x5A3C96E5u;

// Figure 5, lines 1-6; keyT rounds (sizeof(keyT)), right shift 8. Line 4 is
// printed with a parenthesis missing: x = ((x >> rShift) ^ x) * mulOp + j.
template <class Key>
WC_HD WC_FORCE_INLINE uint32_t general_hash(Key key, uint32_t multiplier) {
  Key x = key;
  for (uint32_t j = sizeof(Key); j > 0; --j) x = ((x >> 8) ^ x) * multiplier + j;
  return static_cast<uint32_t>(x);
}

// __umulhi: the high 32 bits of the product, a value in [0, b) for any a.
WC_HD WC_FORCE_INLINE uint32_t umulhi(uint32_t a, uint32_t b) {
#if defined(__CUDA_ARCH__)
  return __umulhi(a, b);
#else
  return static_cast<uint32_t>((uint64_t(a) * b) >> 32);
#endif
}

// Figure 5, lines 7-10.
template <class Key>
WC_HD WC_FORCE_INLINE uint32_t init_hash(Key key, uint32_t table_size) {
  return umulhi(general_hash(key, kInitMul), table_size);
}

// Figure 5, lines 11-15: the next bucket, a step in [1, N - 1] further.
// As printed the sum is a 32-bit uint, which wraps once N passes 2^31: the
// chain then skips buckets and repeats others. Fix S10 (rehash_in_64_bits):
// the sum in 64 bits, so tables may have up to 2^32 - 5 buckets (below 2^31
// buckets the two agree).
template <class Key>
WC_HD WC_FORCE_INLINE uint32_t rehash(uint32_t hashed, Key key, uint32_t table_size, bool sum_in_64_bits = true) {
  const uint32_t step = 1 + umulhi(general_hash(key, kRehashMul), table_size - 1);
  if (!sum_in_64_bits) {
    const uint32_t dh = hashed + step;
    return dh >= table_size ? dh - table_size : dh;
  }
  const uint64_t dh = uint64_t(hashed) + step;
  return static_cast<uint32_t>(dh >= table_size ? dh - table_size : dh);
}

// The key's info bits: the low `bits` of its info hash.
template <class Key>
WC_HD WC_FORCE_INLINE uint32_t info_of(Key key, uint32_t bits) {
  return bits ? general_hash(key, kInfoMul) & ((1u << bits) - 1) : 0u;
}

}  // namespace warpcheck::structures::stadium_detail
