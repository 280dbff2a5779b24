// A paper's fixes, one bit each, named once in a table (bit i at entry i,
// checked by one_bit_each): the bits a run asks for by --variant and
// --fixes, and a finding's run, the printed algorithm with every fix but
// one, both from that table.
#pragma once
#include <cstdint>
#include <span>
#include <string>

#include "stress/seam/named_values.hpp"
#include "stress/seam/options.hpp"

namespace warpcheck {

using FixTable = std::span<const Named<uint32_t>>;

// --variant of a structure from a paper: as printed, or with every fix of
// its findings.
enum class PaperVariant : uint8_t { paper, fixed };
inline constexpr Named<PaperVariant> kPaperVariants[] = {WC_NAMED(PaperVariant::paper), WC_NAMED(PaperVariant::fixed)};
static_assert(in_enum_order(kPaperVariants));

constexpr uint32_t all_fix_bits(FixTable fixes) {
  uint32_t bits = 0;
  for (const Named<uint32_t>& f : fixes) bits |= f.value;
  return bits;
}

// "a,b": the names of `bits`, in table order.
std::string fix_names(FixTable fixes, uint32_t bits);
// The bits of the fixes --fixes names.
uint32_t named_fix_bits(const Options& o, FixTable fixes);
// What a run of a paper's variant asks for: every fix for --variant fixed,
// and those --fixes names.
uint32_t chosen_fix_bits(const Options& o, FixTable fixes);
// A finding's run: "--variant paper --fixes" every fix but `fix`.
std::string paper_without(FixTable fixes, uint32_t fix);

}  // namespace warpcheck
