#include "tools/cli_args.hpp"

#include <iostream>
#include <sstream>

#include "models/base/quote.hpp"

namespace warpcheck::cli {

namespace {

const OptionSpec* find(const OptionTable* table, const std::string& name) {
  if (table)
    for (const OptionSpec& o : *table)
      if (o.name == name) return &o;
  return nullptr;
}

}  // namespace

std::string synopsis(const CommandSpec& spec) {
  return spec.name + (spec.positional.empty() ? "" : " " + spec.positional) + (spec.run_options.empty() ? "" : " [stress options]") +
         (spec.options.empty() ? "" : " [options]");
}

std::string help_text(const CommandSpec& spec) {
  std::ostringstream s;
  s << "usage: warpcheck " << synopsis(spec) << "\n" << spec.summary << "\n\noptions:\n";
  print_option_help(spec.options, {Backend::Sim}, s);
  s << "  --help                          this text\n";
  if (!spec.run_options.empty()) s << "stress options: " << spec.run_options << "\n";
  if (!spec.more.empty()) s << spec.more << (spec.more.back() == '\n' ? "" : "\n");
  return s.str();
}

Args::Args(int argc, char** argv, int first, const CommandSpec& spec, const OptionTable* run_table) : spec_(&spec) {
  std::map<std::string, std::string> values;
  std::set<std::string> flags;
  for (int i = first; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--", 0) != 0 || a == "--") {
      positional_.push_back(a);
      continue;
    }
    std::string name = a.substr(2), val;
    bool inline_value = false;
    if (auto eq = name.find('='); eq != std::string::npos) {
      val = name.substr(eq + 1);
      name = name.substr(0, eq);
      inline_value = true;
    }
    const OptionSpec* o = find(&spec.options, name);
    const bool own = o != nullptr || name == "help";
    if (!own) o = find(run_table, name);
    if (!o && name != "help") throw UsageError("unknown option " + warpcheck::detail::quoted("--" + name));
    if (!o || o->kind == OptionKind::Flag) {
      if (inline_value) throw UsageError("--" + name + " takes no value");
      if (name == "help") help_ = true;
      else (own ? flags : run_flags_).insert(name);
      continue;
    }
    if (!inline_value) {
      if (i + 1 >= argc) throw UsageError("--" + name + " needs a value");
      val = argv[++i];
    }
    (own ? values : run_values_)[name] = val;  // a later value replaces an earlier one
  }
  if (help_) return;  // --help answers whatever else the line says
  try {
    // The declaration lives as long as the program: a shared pointer that owns nothing.
    options_ = parse_options(std::shared_ptr<const OptionTable>(std::shared_ptr<const OptionTable>(), &spec.options), Backend::Sim,
                             values, flags);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

bool Args::answered_help(std::ostream& out) const {
  if (help_) out << help_text(*spec_);
  return help_;
}

std::optional<Args> command_args(int argc, char** argv, const CommandSpec& spec, size_t positionals) {
  Args args(argc, argv, 2, spec);
  if (args.answered_help(std::cout)) return std::nullopt;
  if (args.positional().size() != positionals) throw args.usage();
  return args;
}

std::optional<uint64_t> whole_number(const std::string& text) {
  try {
    size_t used = 0;
    const uint64_t n = std::stoull(text, &used);
    if (used == text.size()) return n;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

}  // namespace warpcheck::cli
