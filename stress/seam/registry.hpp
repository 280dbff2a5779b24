// The structures `warpcheck stress` runs: one warpcheck_add_structure call
// each, in the top-level CMakeLists.txt, from which the registration list
// (stress/run/registered_structures.cpp) is generated.
#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "stress/seam/structure.hpp"

namespace warpcheck {

struct GpuProbe {
  bool present = false;
  int devices = 0;  // how many this process sees
  std::string name, why_absent;
};

struct Registry {
  std::vector<Structure> structures;  // the first is the default
  std::function<GpuProbe()> probe_gpu;
  // By its name or one of its former names (a history written before).
  const Structure* find(std::string_view name) const;
  std::string names() const;  // "a, b, c": the names, not the former ones
};

const Registry& registry();

}  // namespace warpcheck
