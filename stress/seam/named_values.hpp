// A type's values with their command-line names, declared once as a table:
// an option's choices, the look-up of its parsed value and the names a
// catalogue lists all come from it, by name, never by position.
//
//   constexpr Named<lock_access> kAccesses[] = {WC_NAMED(lock_access::ignore), WC_NAMED(lock_access::wait)};
//   static_assert(in_enum_order(kAccesses));  // entry i is value i: every value once
//   choice_option("access", "...", "wait", kAccesses)  ...  c.access = o.choice("access", kAccesses);
//
// Header-only and free of the rest of the seam, so that a structure's
// configuration header (compiled by nvcc too) can hold a table.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace warpcheck {

template <class V>
struct Named {
  V value;
  std::string_view name;
};

// "torn_read" from "Mutant::torn_read".
constexpr std::string_view unqualified(std::string_view spelled) {
  const size_t colons = spelled.rfind("::");
  return colons == std::string_view::npos ? spelled : spelled.substr(colons + 2);
}

// An entry named as the value's identifier is spelled: the name written once.
#define WC_NAMED(value) {value, ::warpcheck::unqualified(#value)}

// Entry i is value i: a dense enum's values (or false, true), each once, in
// declaration order, so that no value is left out or named twice.
template <class V, size_t N>
constexpr bool in_enum_order(const Named<V> (&table)[N]) {
  for (size_t i = 0; i < N; ++i)
    if (static_cast<size_t>(table[i].value) != i) return false;
  return true;
}

// Entry i is bit i: one-bit flags (a structure's fixes), each once.
template <size_t N>
constexpr bool one_bit_each(const Named<uint32_t> (&table)[N]) {
  for (size_t i = 0; i < N; ++i)
    if (table[i].value != uint32_t(1) << i) return false;
  return true;
}

// The value called `name`; null when the table has no such name.
template <class V>
constexpr const V* value_named(std::span<const Named<V>> table, std::string_view name) {
  for (const Named<V>& e : table)
    if (e.name == name) return &e.value;
  return nullptr;
}
template <class V, size_t N>
constexpr const V* value_named(const Named<V> (&table)[N], std::string_view name) {
  return value_named(std::span<const Named<V>>(table), name);
}

// The name of `value`; empty when the table lacks it.
template <class V, size_t N>
constexpr std::string_view name_of(const Named<V> (&table)[N], const V& value) {
  for (const Named<V>& e : table)
    if (e.value == value) return e.name;
  return {};
}

// The names in table order: a choice option's choices.
template <class V, size_t N>
std::vector<std::string> names_of(const Named<V> (&table)[N]) {
  std::vector<std::string> names;
  for (const Named<V>& e : table) names.emplace_back(e.name);
  return names;
}

}  // namespace warpcheck
