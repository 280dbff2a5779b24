#include "stress/seam/fix_bits.hpp"

#include <stdexcept>

#include "stress/seam/structure.hpp"

namespace warpcheck {

std::string fix_names(FixTable fixes, uint32_t bits) {
  std::string names;
  for (const Named<uint32_t>& f : fixes)
    if (bits & f.value) names.append(names.empty() ? "" : ",").append(f.name);
  return names;
}

uint32_t named_fix_bits(const Options& o, FixTable fixes) {
  uint32_t bits = 0;
  for (const std::string& name : chosen_fixes(o)) {
    const uint32_t* bit = value_named(fixes, name);
    // --fixes takes the catalogue's names: one the table lacks is a bug in the declaration.
    if (!bit) throw std::logic_error("fix " + name + " is declared but has no bit in the structure's fix table");
    bits |= *bit;
  }
  return bits;
}

uint32_t chosen_fix_bits(const Options& o, FixTable fixes) {
  const bool fixed = o.choice("variant", kPaperVariants) == PaperVariant::fixed;
  return (fixed ? all_fix_bits(fixes) : 0) | named_fix_bits(o, fixes);
}

std::string paper_without(FixTable fixes, uint32_t fix) {
  return "--variant paper --fixes " + fix_names(fixes, all_fix_bits(fixes) & ~fix);
}

}  // namespace warpcheck
