#include "tools/cli_args.hpp"

#include <charconv>
#include <cmath>

#include "models/base/quote.hpp"

namespace warpcheck::cli {

Args::Args(int argc, char** argv, int first, const std::set<std::string>& valued, const std::set<std::string>& flags) {
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
    if (flags.count(name)) {
      if (inline_value) throw UsageError("--" + name + " takes no value");
      flags_.insert(name);
    } else if (valued.count(name)) {
      if (!inline_value) {
        if (i + 1 >= argc) throw UsageError("--" + name + " needs a value");
        val = argv[++i];
      }
      values_[name] = val;
    } else {
      throw UsageError("unknown option " + warpcheck::detail::quoted("--" + name));
    }
  }
}

namespace {

std::set<std::string> declared_names(const CommandSpec& spec, bool valued) {
  std::set<std::string> names;
  for (const CommandOption& o : spec.options)
    if (o.value.empty() != valued) names.insert(o.name);
  if (!valued) names.insert("help");
  return names;
}

}  // namespace

std::string synopsis(const CommandSpec& spec) {
  std::string s = spec.name + (spec.positional.empty() ? "" : " " + spec.positional);
  for (const CommandOption& o : spec.options) s += " [--" + o.name + (o.value.empty() ? "" : " " + o.value) + "]";
  return s;
}

std::string help_text(const CommandSpec& spec) {
  std::string s = "usage: warpcheck " + spec.name + (spec.positional.empty() ? "" : " " + spec.positional) + " [options]\n" + spec.summary + "\n\noptions:\n";
  for (const CommandOption& o : spec.options) {
    s += "  --" + o.name + (o.value.empty() ? "" : " " + o.value) + "\n      " + o.help;
    if (!o.fallback.empty()) s += " (default: " + o.fallback + ")";
    s += "\n";
  }
  return s + "  --help\n      this text\n";
}

Args::Args(int argc, char** argv, int first, const CommandSpec& spec)
    : Args(argc, argv, first, declared_names(spec, true), declared_names(spec, false)) {
  spec_ = &spec;
  help_ = flags_.count("help") > 0;
}

bool Args::answered_help(std::ostream& out) const {
  if (help_) out << help_text(*spec_);
  return help_;
}

const CommandOption& Args::declared(const std::string& name) const {
  if (spec_)
    for (const CommandOption& o : spec_->options)
      if (o.name == name) return o;
  throw std::logic_error("--" + name + " is not declared");
}

double Args::number(const std::string& name, double min, double max) const {
  const std::string& d = declared(name).fallback;
  double fallback = 0;
  if (std::from_chars(d.data(), d.data() + d.size(), fallback).ptr != d.data() + d.size()) throw std::logic_error("--" + name + ": default is not a number");
  return number(name, fallback, min, max);
}

uint64_t Args::integer(const std::string& name, uint64_t min, uint64_t max) const {
  const std::string& d = declared(name).fallback;
  uint64_t fallback = 0;
  if (std::from_chars(d.data(), d.data() + d.size(), fallback).ptr != d.data() + d.size()) throw std::logic_error("--" + name + ": default is not an integer");
  return integer(name, fallback, min, max);
}

std::string Args::text(const std::string& name) const { return value(name).value_or(declared(name).fallback); }

std::optional<std::string> Args::value(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

double Args::number(const std::string& name, double fallback, double min, double max) const {
  auto v = value(name);
  if (!v) return fallback;
  double d = 0;
  auto res = std::from_chars(v->data(), v->data() + v->size(), d);
  if (res.ec != std::errc() || res.ptr != v->data() + v->size() || !std::isfinite(d) || d < min || d > max)
    throw UsageError("--" + name + " must be a number in [" + std::to_string(min) + ", " + std::to_string(max) + "], got " + warpcheck::detail::quoted(*v));
  return d;
}

uint64_t Args::integer(const std::string& name, uint64_t fallback, uint64_t min, uint64_t max) const {
  auto v = value(name);
  if (!v) return fallback;
  uint64_t n = 0;
  auto res = std::from_chars(v->data(), v->data() + v->size(), n);
  if (res.ec != std::errc() || res.ptr != v->data() + v->size() || n < min || n > max)
    throw UsageError("--" + name + " must be an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "], got " + warpcheck::detail::quoted(*v));
  return n;
}

}  // namespace warpcheck::cli
