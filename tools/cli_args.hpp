// A small flag parser for the warpcheck subcommands: positional arguments
// plus --name value / --flag options, with usage errors (exit code 3).
// A command declares its options once (CommandSpec); the parser, the
// defaults and `--help` all read that declaration.
#pragma once

#include <map>
#include <ostream>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace warpcheck::cli {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One option of a command.
struct CommandOption {
  std::string name;      // without the dashes
  std::string value;     // what its value looks like ("S", "bin|jsonl"); empty for a flag
  std::string help;      // what it does
  std::string fallback;  // its default as text: what the accessors use when it is absent, and --help shows
};

struct CommandSpec {
  std::string name;        // "check"
  std::string positional;  // "FILE", "IN OUT", or empty
  std::string summary;     // what the command does, one sentence
  std::vector<CommandOption> options;
};

// "check FILE [--model M] [--json] ...": the command's synopsis.
std::string synopsis(const CommandSpec& spec);
// The whole --help text: synopsis, summary, each option with its default.
std::string help_text(const CommandSpec& spec);

class Args {
 public:
  // `valued` options take a value; `flags` do not.
  Args(int argc, char** argv, int first, const std::set<std::string>& valued, const std::set<std::string>& flags);
  // The options `spec` declares, and --help.
  Args(int argc, char** argv, int first, const CommandSpec& spec);

  // --help was given (a declared command's): prints help_text to `out`
  // and says so; the command then exits 0.
  bool answered_help(std::ostream& out) const;
  // The usage error for a wrong count of positional arguments.
  UsageError usage() const { return UsageError("usage: warpcheck " + synopsis(*spec_) + " (warpcheck " + spec_->name + " --help)"); }

  const std::vector<std::string>& positional() const { return positional_; }
  bool flag(const std::string& name) const { return flags_.count(name) > 0; }
  const std::set<std::string>& flags() const { return flags_; }
  const std::map<std::string, std::string>& values() const { return values_; }
  std::optional<std::string> value(const std::string& name) const;
  double number(const std::string& name, double fallback, double min, double max) const;
  uint64_t integer(const std::string& name, uint64_t fallback, uint64_t min, uint64_t max) const;
  // The same with the declared default.
  double number(const std::string& name, double min, double max) const;
  uint64_t integer(const std::string& name, uint64_t min, uint64_t max) const;
  std::string text(const std::string& name) const;  // the value, or the declared default

 private:
  const CommandOption& declared(const std::string& name) const;

  const CommandSpec* spec_ = nullptr;
  bool help_ = false;
  std::vector<std::string> positional_;
  std::set<std::string> flags_;
  std::map<std::string, std::string> values_;
};

}  // namespace warpcheck::cli
