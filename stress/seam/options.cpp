#include "stress/seam/options.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "linearizability/json_string.hpp"

namespace warpcheck {

std::string_view backend_name(Backend b) { return b == Backend::Sim ? "sim" : b == Backend::Threads ? "threads" : "gpu"; }

std::optional<Backend> parse_backend(std::string_view name) {
  for (Backend b : kAllBackends)
    if (backend_name(b) == name) return b;
  return std::nullopt;
}

namespace {

OptionSpec option(std::string name, OptionKind kind, std::string help, Defaults d) {
  OptionSpec o;
  o.name = std::move(name);
  o.kind = kind;
  o.help = std::move(help);
  o.defaults = std::move(d);
  return o;
}

}  // namespace

OptionSpec integer_option(std::string name, std::string help, Defaults d, uint64_t min, uint64_t max) {
  OptionSpec o = option(std::move(name), OptionKind::Integer, std::move(help), std::move(d));
  o.min = min;
  o.max = max;
  return o;
}

OptionSpec real_option(std::string name, std::string help, Defaults d, double min, double max) {
  OptionSpec o = option(std::move(name), OptionKind::Real, std::move(help), std::move(d));
  o.real_min = min;
  o.real_max = max;
  return o;
}

OptionSpec choice_option(std::string name, std::string help, Defaults d, std::vector<std::string> choices) {
  OptionSpec o = option(std::move(name), OptionKind::Choice, std::move(help), std::move(d));
  o.choices = std::move(choices);
  return o;
}

OptionSpec names_option(std::string name, std::string help, std::vector<std::string> choices) {
  OptionSpec o = option(std::move(name), OptionKind::Names, std::move(help), Defaults{});
  o.choices = std::move(choices);
  return o;
}

OptionSpec text_option(std::string name, std::string help, Defaults d, std::function<void(const std::string&)> check) {
  OptionSpec o = option(std::move(name), OptionKind::Text, std::move(help), std::move(d));
  o.check = std::move(check);
  return o;
}

OptionSpec flag_option(std::string name, std::string help) {
  return option(std::move(name), OptionKind::Flag, std::move(help), Defaults{});
}

OptionSpec session_option(OptionSpec o) {
  o.run = false;
  return o;
}

OptionSpec only_on(std::vector<Backend> backends, OptionSpec o) {
  o.backends = std::move(backends);
  return o;
}

OptionSpec named_value(std::string value_name, OptionSpec o) {
  o.value_name = std::move(value_name);
  return o;
}

OptionSpec default_in_words(std::string words, OptionSpec o) {
  o.default_words = std::move(words);
  return o;
}

OptionSpec backend_option(std::string help, Defaults d) {
  std::vector<std::string> names;
  for (Backend b : kAllBackends) names.emplace_back(backend_name(b));
  return choice_option("backend", std::move(help), std::move(d), std::move(names));
}

std::string join(const std::vector<std::string>& v, std::string_view sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s.append(i ? sep : "").append(v[i]);
  return s;
}

namespace {

std::vector<std::string> split_names(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size() && !text.empty()) {
    const size_t end = std::min(text.find(',', start), text.size());
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

}  // namespace

std::string number_text(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

void check_value(const OptionSpec& o, const std::string& value) {
  const std::string what = "--" + o.name + " ";
  switch (o.kind) {
    case OptionKind::Integer: {
      uint64_t n = 0;
      const auto r = std::from_chars(value.data(), value.data() + value.size(), n);
      if (r.ec != std::errc() || r.ptr != value.data() + value.size() || n < o.min || n > o.max)
        throw std::invalid_argument(what + "must be an integer in [" + std::to_string(o.min) + ", " + std::to_string(o.max) +
                                    "], got '" + value + "'");
      return;
    }
    case OptionKind::Real: {
      double d = 0;
      const auto r = std::from_chars(value.data(), value.data() + value.size(), d);
      if (r.ec != std::errc() || r.ptr != value.data() + value.size() || !std::isfinite(d) || d < o.real_min || d > o.real_max)
        throw std::invalid_argument(what + "must be a number in [" + number_text(o.real_min) + ", " + number_text(o.real_max) +
                                    "], got '" + value + "'");
      return;
    }
    case OptionKind::Choice:
      if (std::find(o.choices.begin(), o.choices.end(), value) == o.choices.end())
        throw std::invalid_argument(what + "must be one of " + join(o.choices, ", ") + "; got '" + value + "'");
      return;
    case OptionKind::Names:
      for (const std::string& n : split_names(value))
        if (std::find(o.choices.begin(), o.choices.end(), n) == o.choices.end())
          throw std::invalid_argument(what + "takes names from " + (o.choices.empty() ? "(none)" : join(o.choices, ", ")) +
                                      "; got '" + n + "'");
      return;
    case OptionKind::Text:
      if (o.check) o.check(value);
      return;
    case OptionKind::Flag: return;
  }
}

namespace {

std::string value_form(const OptionSpec& o) {
  if (!o.value_name.empty()) return " " + o.value_name;
  switch (o.kind) {
    case OptionKind::Integer: return " N";
    case OptionKind::Real: return " F";
    case OptionKind::Choice: return " " + join(o.choices, "|");
    case OptionKind::Names: return " NAME,...";
    case OptionKind::Text: return " TEXT";
    case OptionKind::Flag: return "";
  }
  return "";
}

}  // namespace

const OptionSpec& Options::spec(std::string_view name) const {
  if (table_)
    for (const OptionSpec& o : *table_)
      if (o.name == name) return o;
  throw std::logic_error("option --" + std::string(name) + " is not declared for this run");
}

const std::string* Options::value(std::string_view name) const {
  spec(name);  // a typo in a structure's adapter is a bug, not an unset option
  auto it = values_.find(name);
  return it == values_.end() ? nullptr : &it->second;
}

bool Options::declared(std::string_view name) const {
  return table_ && std::any_of(table_->begin(), table_->end(), [&](const OptionSpec& o) { return o.name == name; });
}
bool Options::has_value(std::string_view name) const { return value(name) != nullptr; }
bool Options::given(std::string_view name) const { return given_.count(name) > 0; }

uint64_t Options::integer(std::string_view name) const {
  const std::string* v = value(name);
  const bool numeric = v && (spec(name).kind == OptionKind::Integer || spec(name).kind == OptionKind::Choice);
  uint64_t n = 0;
  const auto r = numeric ? std::from_chars(v->data(), v->data() + v->size(), n) : std::from_chars_result{};
  if (!numeric || r.ec != std::errc() || r.ptr != v->data() + v->size())
    throw std::logic_error("option --" + std::string(name) + " has no integer value");
  return n;
}

double Options::real(std::string_view name) const {
  const std::string* v = value(name);
  if (!v || spec(name).kind != OptionKind::Real) throw std::logic_error("option --" + std::string(name) + " has no number value");
  double d = 0;
  std::from_chars(v->data(), v->data() + v->size(), d);
  return d;
}

const std::string& Options::text(std::string_view name) const {
  static const std::string kNone;
  const std::string* v = value(name);
  return v ? *v : kNone;
}

std::vector<std::string> Options::names(std::string_view name) const { return split_names(text(name)); }

Backend backend_value(std::string_view name) {
  check_value(backend_option(""), std::string(name));
  return *parse_backend(name);
}

std::optional<Backend> Options::backend_option_value() const {
  if (!declared("backend") || !has_value("backend")) return std::nullopt;
  return parse_backend(text("backend"));
}

bool Options::flag(std::string_view name) const { return value(name) != nullptr && spec(name).kind == OptionKind::Flag; }

std::map<std::string, std::string> Options::run_values() const {
  std::map<std::string, std::string> out;
  for (const OptionSpec& o : *table_)
    if (o.run)
      if (auto it = values_.find(o.name); it != values_.end()) out[o.name] = it->second;
  return out;
}

void Options::set(std::string_view name, std::string value) {
  check_value(spec(name), value);
  values_[std::string(name)] = std::move(value);
}

std::string Options::run_flags() const {
  std::string s;
  for (const OptionSpec& o : *table_) {
    if (!o.run) continue;
    auto it = values_.find(o.name);
    if (it == values_.end()) continue;
    s += " --" + o.name;
    if (o.kind != OptionKind::Flag) s += " " + it->second;
  }
  return s;
}

std::string Options::run_flags_for(Backend b) const {
  std::string s;
  for (const OptionSpec& o : *table_) {
    auto it = values_.find(o.name);
    if (!o.run || it == values_.end() || o.name == "backend") continue;
    if (!o.backends.empty() && std::find(o.backends.begin(), o.backends.end(), b) == o.backends.end()) continue;
    if (!given_.count(o.name) && it->second == o.defaults.on(b)) continue;
    s += " --" + o.name;
    if (o.kind != OptionKind::Flag) s += " " + it->second;
  }
  return s;
}

std::string Options::run_json() const {
  std::string s = "{";
  bool first = true;
  for (const OptionSpec& o : *table_) {
    auto it = values_.find(o.name);
    if (!o.run || it == values_.end()) continue;
    if (!first) s += ',';
    first = false;
    append_json_string(s, o.name);
    s += ':';
    append_json_string(s, it->second);
  }
  return s + "}";
}

Options parse_options(std::shared_ptr<const OptionTable> table, Backend backend,
                      const std::map<std::string, std::string>& values, const std::set<std::string>& flags) {
  Options out;
  out.table_ = std::move(table);
  out.backend_ = backend;
  auto find = [&](const std::string& name) -> const OptionSpec* {
    for (const OptionSpec& o : *out.table_)
      if (o.name == name) {
        const bool here = o.backends.empty() || std::find(o.backends.begin(), o.backends.end(), backend) != o.backends.end();
        if (!here) {
          std::string where;
          for (Backend b : o.backends) where += (where.empty() ? "" : " or ") + std::string(backend_name(b));
          throw std::invalid_argument("--" + name + " applies only with --backend " + where);
        }
        return &o;
      }
    return nullptr;
  };
  for (const auto& [name, v] : values) {
    const OptionSpec* o = find(name);
    if (!o) throw std::invalid_argument("unknown option --" + name);
    if (o->kind == OptionKind::Flag) throw std::invalid_argument("--" + name + " takes no value");
    check_value(*o, v);
    out.values_[name] = v;
    out.given_.insert(name);
  }
  for (const std::string& name : flags) {
    const OptionSpec* o = find(name);
    if (!o) throw std::invalid_argument("unknown option --" + name);
    if (o->kind != OptionKind::Flag) throw std::invalid_argument("--" + name + " needs a value");
    out.values_[name] = "true";
    out.given_.insert(name);
  }
  for (const OptionSpec& o : *out.table_) {
    if (o.kind == OptionKind::Flag || out.values_.count(o.name)) continue;
    if (!o.backends.empty() && std::find(o.backends.begin(), o.backends.end(), backend) == o.backends.end()) continue;
    const std::string& d = o.defaults.on(backend);
    if (d.empty()) continue;
    check_value(o, d);  // a bad default is a bug in the declaration: say so at once
    out.values_[o.name] = d;
  }
  return out;
}

void print_option_help(const OptionTable& table, const std::vector<Backend>& backends, std::ostream& out) {
  for (const OptionSpec& o : table) {
    std::string head = "  --" + o.name + value_form(o);
    if (head.size() < 34) head.resize(34, ' ');
    else head += "\n" + std::string(34, ' ');
    out << head << o.help;
    std::vector<std::pair<Backend, std::string>> defaults;
    for (Backend b : backends)
      if ((o.backends.empty() || std::find(o.backends.begin(), o.backends.end(), b) != o.backends.end()) &&
          !o.defaults.on(b).empty())
        defaults.emplace_back(b, o.defaults.on(b));
    if (!o.default_words.empty()) {
      out << " (default: " << o.default_words << ")";
      defaults.clear();
    }
    const bool same = std::all_of(defaults.begin(), defaults.end(), [&](auto& d) { return d.second == defaults[0].second; });
    if (!defaults.empty() && same) out << " (default " << defaults[0].second << ")";
    else if (!defaults.empty()) {
      out << " (default:";
      for (size_t i = 0; i < defaults.size(); ++i) out << (i ? ", " : " ") << backend_name(defaults[i].first) << " " << defaults[i].second;
      out << ")";
    }
    if (o.backends.size() == 1) out << " [" << backend_name(o.backends[0]) << " only]";
    out << "\n";
  }
}

}  // namespace warpcheck
