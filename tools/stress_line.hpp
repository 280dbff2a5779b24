// A command line that carries a stress run's options (stress, repro,
// campaign): which structure it names, and the line parsed against that
// structure's option table plus the command's own options.
#pragma once
#include <set>
#include <string>

#include "stress/seam/registry.hpp"
#include "tools/cli_args.hpp"

namespace warpcheck::cli {

// --structure's value, wherever it is on the line (the table depends on
// it); nullptr when the line names none. Throws UsageError for an unknown one.
const Structure* structure_named(const Registry& reg, int argc, char** argv);

// The command line against the structure's table, plus the command's own flags and valued options.
Args parse_line(int argc, char** argv, const Structure& s, const std::set<std::string>& own_flags,
                const std::set<std::string>& own_values = {});

}  // namespace warpcheck::cli
