// Options declared once. The stress run's options and each structure's are
// tables of OptionSpec; parsing, validation (ranges, choices, per-back-end
// defaults), help, the reproduce line and the JSON configuration stored in
// every history all come from the table.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "stress/seam/named_values.hpp"

namespace warpcheck {

enum class Backend : uint8_t { Sim, Threads, Gpu };
inline constexpr Backend kAllBackends[] = {Backend::Sim, Backend::Threads, Backend::Gpu};
std::string_view backend_name(Backend b);
std::optional<Backend> parse_backend(std::string_view name);

enum class OptionKind : uint8_t {
  Integer,  // unsigned 64-bit, in [min, max]
  Real,     // in [min, max]
  Choice,   // one of `choices`
  Names,    // comma-separated names from `choices` (possibly none)
  Text,     // free text, checked by `check`
  Flag,     // present or not
};

// A default for each back-end; an empty one leaves the option unset.
struct Defaults {
  std::string sim, threads, gpu;
  Defaults() = default;
  Defaults(std::string all) : sim(all), threads(all), gpu(std::move(all)) {}  // NOLINT: one default everywhere
  Defaults(const char* all) : Defaults(std::string(all)) {}                   // NOLINT
  Defaults(std::string s, std::string t, std::string g) : sim(std::move(s)), threads(std::move(t)), gpu(std::move(g)) {}
  const std::string& on(Backend b) const { return b == Backend::Sim ? sim : b == Backend::Threads ? threads : gpu; }
};

struct OptionSpec {
  std::string name;  // without the leading --
  OptionKind kind = OptionKind::Integer;
  std::string help;  // one line
  Defaults defaults;
  uint64_t min = 0, max = 0;        // Integer
  double real_min = 0, real_max = 0;  // Real
  std::vector<std::string> choices;   // Choice, Names
  std::function<void(const std::string&)> check;  // Text (throws std::invalid_argument saying what is wrong)
  // Part of the run's configuration: written into the reproduce line and
  // the history. Otherwise it says how to run the session (seeds, out, ...).
  bool run = true;
  std::vector<Backend> backends;  // where it applies (empty: every back-end)
  std::string value_name;         // in help: "DIR", "@FILE" (default: by kind)
  std::string default_words;      // in help, for a default the command works out ("the cores")
};

// Builders, so that tables read as declarations.
OptionSpec integer_option(std::string name, std::string help, Defaults d, uint64_t min, uint64_t max);
OptionSpec real_option(std::string name, std::string help, Defaults d, double min, double max);
OptionSpec choice_option(std::string name, std::string help, Defaults d, std::vector<std::string> choices);
// Choices from a table of values (named_values.hpp): Options::choice looks the value up in it.
template <class V, size_t N>
OptionSpec choice_option(std::string name, std::string help, Defaults d, const Named<V> (&values)[N]) {
  return choice_option(std::move(name), std::move(help), std::move(d), names_of(values));
}
OptionSpec names_option(std::string name, std::string help, std::vector<std::string> choices);
OptionSpec text_option(std::string name, std::string help, Defaults d, std::function<void(const std::string&)> check);
OptionSpec flag_option(std::string name, std::string help);
OptionSpec session_option(OptionSpec o);  // the same, not part of the run's configuration
OptionSpec only_on(std::vector<Backend> backends, OptionSpec o);  // the same, for some back-ends only
OptionSpec named_value(std::string value_name, OptionSpec o);     // the same, its value called so in help
OptionSpec default_in_words(std::string words, OptionSpec o);     // the same, its computed default said so in help

// --backend, declared here once for every command that takes it: its
// choices and its message. `help` says what the command's default is.
OptionSpec backend_option(std::string help, Defaults d = Defaults{});
// Throws std::invalid_argument saying what is valid when `value` is not a
// valid value of `o` (a value read before its table is known: --structure).
void check_value(const OptionSpec& o, const std::string& value);

// A --backend value checked against that declaration (std::invalid_argument otherwise).
Backend backend_value(std::string_view name);

// Names joined by `sep`: "a|b|c" for a value's form, "a, b, c" for a message.
std::string join(const std::vector<std::string>& v, std::string_view sep);

// A number as a default or a message shows it: "20", "0.5", "1e+07".
std::string number_text(double v);

using OptionTable = std::vector<OptionSpec>;

// Parsed, validated values of one table, defaults applied.
class Options {
 public:
  Options() = default;
  Backend backend() const { return backend_; }
  const OptionTable& table() const { return *table_; }
  bool declared(std::string_view name) const;
  bool has_value(std::string_view name) const;  // set, or defaulted to a value
  bool given(std::string_view name) const;      // set explicitly
  uint64_t integer(std::string_view name) const;  // an integer option's, or a choice's among numbers (--chunk 16)
  double real(std::string_view name) const;
  const std::string& text(std::string_view name) const;  // any kind's value as given or defaulted
  std::vector<std::string> names(std::string_view name) const;
  bool flag(std::string_view name) const;
  // A choice option's value: the value its name has in `values`, the table
  // its choices came from.
  template <class V, size_t N>
  V choice(std::string_view name, const Named<V> (&values)[N]) const {
    if (const V* v = value_named(values, text(name))) return *v;
    throw std::logic_error("--" + std::string(name) + " " + text(name) + " is not a value of its table");
  }
  // --backend's value where the table declares it and it has one.
  std::optional<Backend> backend_option_value() const;

  // " --name value ..." for every run option that has a value, and every
  // run flag set, in table order: with --structure, the whole run.
  std::string run_flags() const;
  // {"name":"value",...} of the same (values as text).
  std::string run_json() const;
  // The run flags that carry this run over to back-end `b`: the options
  // that apply there (not --backend), each given here or with a value
  // other than b's default (a shape the back-ends default differently);
  // those defaulted alike are left to b, as an option given where it does
  // not apply may be refused (--switch-at without the hybrid kernel).
  std::string run_flags_for(Backend b) const;
  // The run options' values by name (what run_json holds).
  std::map<std::string, std::string> run_values() const;

  // Sets a value the run derived (PCT's step estimate, say), checked like a given one.
  void set(std::string_view name, std::string value);

 private:
  friend Options parse_options(std::shared_ptr<const OptionTable>, Backend, const std::map<std::string, std::string>&,
                               const std::set<std::string>&);
  const OptionSpec& spec(std::string_view name) const;
  const std::string* value(std::string_view name) const;
  std::shared_ptr<const OptionTable> table_;
  Backend backend_ = Backend::Sim;
  std::map<std::string, std::string, std::less<>> values_;  // flags set: "true"
  std::set<std::string, std::less<>> given_;
};

// Checks values (by name; flags by presence) against the table: unknown
// names, malformed numbers, values out of range or not among the choices
// throw std::invalid_argument saying what is valid. Defaults come from
// `backend`.
Options parse_options(std::shared_ptr<const OptionTable> table, Backend backend,
                      const std::map<std::string, std::string>& values, const std::set<std::string>& flags);

// One line an option: name, value form, help, defaults on the back-ends
// given (those a structure runs on).
void print_option_help(const OptionTable& table, const std::vector<Backend>& backends, std::ostream& out);

}  // namespace warpcheck
