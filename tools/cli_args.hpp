// A small flag parser for the warpcheck subcommands: positional arguments
// plus --name value / --flag options, with usage errors (exit code 3).
#pragma once

#include <map>
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

class Args {
 public:
  // `valued` options take a value; `flags` do not.
  Args(int argc, char** argv, int first, const std::set<std::string>& valued, const std::set<std::string>& flags);

  const std::vector<std::string>& positional() const { return positional_; }
  bool flag(const std::string& name) const { return flags_.count(name) > 0; }
  const std::set<std::string>& flags() const { return flags_; }
  const std::map<std::string, std::string>& values() const { return values_; }
  std::optional<std::string> value(const std::string& name) const;
  double number(const std::string& name, double fallback, double min, double max) const;
  uint64_t integer(const std::string& name, uint64_t fallback, uint64_t min, uint64_t max) const;

 private:
  std::vector<std::string> positional_;
  std::set<std::string> flags_;
  std::map<std::string, std::string> values_;
};

}  // namespace warpcheck::cli
