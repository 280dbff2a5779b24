// A command line that carries a stress run's options (stress, repro,
// campaign, guided-bench): which structure it names, and the line parsed
// against that structure's option table plus the command's own options.
#pragma once
#include <ostream>
#include <string>

#include "stress/seam/registry.hpp"
#include "tools/cli_args.hpp"

namespace warpcheck::cli {

// --structure S, declared once: one of the registry's structures.
// `default_words` says what the command does without it.
OptionSpec structure_option(const std::string& default_words);

// A former name of a structure as --structure's value (a reproduce line
// written before the structure was renamed): the line is changed to name it
// as it is called now, and `note` says so.
void name_structures_as_now(int argc, char** argv, std::ostream& note);

// --structure's value, wherever it is on the line (the table depends on
// it); nullptr when the line names none. Throws UsageError for an unknown one.
const Structure* structure_named(const Registry& reg, int argc, char** argv);

// The command line against the command's own options, plus the structure's table.
Args parse_line(int argc, char** argv, const Structure& s, const CommandSpec& spec);

// --structure as the command's options hold it: nullptr for every structure.
const Structure* only_structure(const Registry& reg, const Options& o);

}  // namespace warpcheck::cli
