// What the declarations say, printed: `warpcheck stress --help` and
// `--list-mutants` (text or JSON), for one structure or all.
#pragma once
#include <ostream>

#include "stress/seam/registry.hpp"

namespace warpcheck {

// `only` null: every structure.
void print_stress_help(const Registry& r, const Structure* only, std::ostream& out);
void print_catalogue(const Registry& r, const Structure* only, bool json, std::ostream& out);

}  // namespace warpcheck
