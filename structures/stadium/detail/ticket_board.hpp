// The ticket board (paper, section III): one ticket a bucket, packed in
// 32-bit words of GPU memory. A ticket of b bits (1, 2, 4 or 8) is the
// availability bit and b - 1 info bits from the key's hash; concurrent
// mixes add the access bit ("an additional bit ... beside the availability
// bit", section III-B), so a slot is b + 1 bits, and a word holds
// 32 / (b + 1) whole slots: bit 0 availability (1: available), bit 1 access
// (1: nobody is at the bucket), bits 2.. info. The board starts all ones.
//
// States of a slot (A availability, C access):
//   A=1 C=1   available: never used (info all ones), or, with the
//             tombstones fix and at least one info bit, a tombstone
//             (info bit 0 cleared) that a delete left
//   A=0 C=0   an insert holds it: it is writing the pair
//   A=0 C=1   live: the pair is complete
//   A=1 C=0   claimed (fixes claim_before_free, claim_to_read): a delete or
//             a retrieval holds a live pair while it reads it
#pragma once
#include <cstdint>

#include "structures/core/spin.hpp"

namespace warpcheck::structures::stadium_detail {

inline constexpr uint32_t kAvailable = 1u, kAccess = 2u, kInfoShift = 2;

enum class ticket_state : uint8_t { never_used, tombstone, inserting, live, claimed };

struct ticket_ref {
  uint32_t* word;
  uint32_t shift;
};

struct ticket_board {
  uint32_t* words = nullptr;
  uint32_t bits = 4;  // the paper's ticket size b

  WC_HD uint32_t slot_bits() const { return bits + 1; }
  WC_HD uint32_t per_word() const { return 32 / slot_bits(); }
  WC_HD uint32_t slot_mask() const { return (1u << slot_bits()) - 1; }
  WC_HD uint32_t info_bits() const { return bits - 1; }
  WC_HD static size_t words_for(uint32_t buckets, uint32_t bits) { return (size_t(buckets) + 32 / (bits + 1) - 1) / (32 / (bits + 1)); }
  WC_HD ticket_ref at(uint32_t bucket) const { return {words + bucket / per_word(), (bucket % per_word()) * slot_bits()}; }
  WC_HD uint32_t slot_of(uint32_t word, const ticket_ref& r) const { return (word >> r.shift) & slot_mask(); }
  WC_HD uint32_t with_slot(uint32_t word, const ticket_ref& r, uint32_t slot) const {
    return (word & ~(slot_mask() << r.shift)) | (slot << r.shift);
  }

  // Slot values.
  WC_HD uint32_t never_used() const { return slot_mask(); }
  WC_HD uint32_t tombstone() const { return bits > 1 ? slot_mask() & ~(1u << kInfoShift) : slot_mask(); }
  WC_HD uint32_t info_field(uint32_t slot) const { return slot >> kInfoShift; }
  WC_HD uint32_t live(uint32_t info) const { return kAccess | (info << kInfoShift); }
  WC_HD uint32_t claimed(uint32_t info) const { return kAvailable | (info << kInfoShift); }
  WC_HD uint32_t inserting_blank() const { return slot_mask() & ~(kAvailable | kAccess); }  // info still all ones

  WC_HD ticket_state state(uint32_t slot) const {
    const bool a = slot & kAvailable, c = slot & kAccess;
    if (a && c) return slot == never_used() ? ticket_state::never_used : ticket_state::tombstone;
    if (!a && !c) return ticket_state::inserting;
    return c ? ticket_state::live : ticket_state::claimed;
  }
};

// One slot's change by compare-and-swap, leaving the word's other slots as
// they are: retried while only neighbours change the word, refused (false)
// once the slot no longer holds `from`. `seen` is the word as last loaded
// (updated). Gives up (gave_up true) past the spin bound.
struct slot_swap {
  bool swapped = false, gave_up = false;
};
template <class Team>
WC_HD slot_swap swap_slot(Team& t, const ticket_board& b, const ticket_ref& r, uint32_t& seen, uint32_t from, uint32_t to,
                          core::order o, core::scope s) {
  core::bounded_spin<Team> neighbours(t, r.word);
  for (;;) {
    if (b.slot_of(seen, r) != from) return {};
    const uint32_t wanted = b.with_slot(seen, r, to);
    const uint32_t found = t.cas(r.word, seen, wanted, o, s);
    if (found == seen) {
      seen = wanted;
      return {true, false};
    }
    seen = found;
    if (!neighbours.again()) return {false, true};
  }
}

// The slot set to `to` whatever it holds (one atomic change of the word).
template <class Team>
WC_HD bool set_slot(Team& t, const ticket_board& b, const ticket_ref& r, uint32_t to, core::order o, core::scope s) {
  core::bounded_spin<Team> neighbours(t, r.word);
  uint32_t seen = t.load(r.word, core::order::relaxed, core::scope::gpu);
  for (;;) {
    const uint32_t found = t.cas(r.word, seen, b.with_slot(seen, r, to), o, s);
    if (found == seen) return true;
    seen = found;
    if (!neighbours.again()) return false;
  }
}

}  // namespace warpcheck::structures::stadium_detail
