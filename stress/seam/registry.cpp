// The registry's look-ups. Its list lives with the adapters
// (stress/run/registered_structures.cpp, in warpcheck_targets): the session
// finds structures by name without linking every adapter.
#include "stress/seam/registry.hpp"

namespace warpcheck {

const Structure* Registry::find(std::string_view name) const {
  for (const Structure& s : structures)
    if (s.spec.name == name) return &s;
  for (const Structure& s : structures)
    for (const std::string& former : s.spec.former_names)
      if (former == name) return &s;
  return nullptr;
}

std::string Registry::names() const {
  std::string s;
  for (const Structure& st : structures) s += (s.empty() ? "" : ", ") + st.spec.name;
  return s;
}

}  // namespace warpcheck
