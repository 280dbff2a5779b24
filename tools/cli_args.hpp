// The warpcheck subcommands' command lines: positional arguments plus
// --name value / --flag options, with usage errors (exit code 3). A
// command declares its options once, as a typed option table
// (stress/seam/options.hpp); the parser, the checks (ranges, choices),
// the defaults, `--help` and the top-level usage all read that declaration.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "stress/seam/options.hpp"

namespace warpcheck::cli {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct CommandSpec {
  std::string name;        // "check"
  std::string positional;  // "FILE", "IN OUT", or empty
  std::string summary;     // what the command does, one sentence
  OptionTable options;     // the command's own
  // Non-empty: the line also takes a structure's stress options (its
  // table, named by --structure), and this says so in help.
  std::string run_options;
  std::string more;  // after the options in --help: modes, exit codes
};

// "check FILE [options]": the command's synopsis.
std::string synopsis(const CommandSpec& spec);
// The whole --help text: synopsis, summary, each option with its default.
std::string help_text(const CommandSpec& spec);

class Args {
 public:
  // The line against `spec`'s options (and --help). Names of `run_table`
  // (a structure's stress options) are taken as given, for the stress
  // run's own parse (stress_line.hpp); the command's own come first.
  Args(int argc, char** argv, int first, const CommandSpec& spec, const OptionTable* run_table = nullptr);

  // --help was given: prints help_text to `out` and says so; the command then exits 0.
  bool answered_help(std::ostream& out) const;
  bool help() const { return help_; }
  // The usage error for a wrong count of positional arguments.
  UsageError usage() const { return UsageError("usage: warpcheck " + synopsis(*spec_) + " (warpcheck " + spec_->name + " --help)"); }

  const std::vector<std::string>& positional() const { return positional_; }
  // The command's own options, checked, defaults applied.
  const Options& options() const { return options_; }
  // The run table's values and flags as given.
  const std::map<std::string, std::string>& run_values() const { return run_values_; }
  const std::set<std::string>& run_flags() const { return run_flags_; }

 private:
  const CommandSpec* spec_;
  bool help_ = false;
  std::vector<std::string> positional_;
  Options options_;
  std::map<std::string, std::string> run_values_;
  std::set<std::string> run_flags_;
};

// The line of a command that takes no structure options: nullopt once
// --help is answered (the command then exits 0); the usage error unless it
// holds `positionals` positional arguments.
std::optional<Args> command_args(int argc, char** argv, const CommandSpec& spec, size_t positionals = 0);

// `text` as a whole number (std::stoull's reading), nullopt unless all of it is one.
std::optional<uint64_t> whole_number(const std::string& text);

}  // namespace warpcheck::cli
