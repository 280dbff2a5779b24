#include "tools/stress_line.hpp"

#include <deque>

namespace warpcheck::cli {

OptionSpec structure_option(const std::string& default_words) {
  std::vector<std::string> names;
  for (const Structure& s : registry().structures) names.push_back(s.spec.name);
  return named_value("S", default_in_words(default_words, choice_option("structure", "one structure: " + join(names, ", "), Defaults{}, names)));
}

void name_structures_as_now(int argc, char** argv, std::ostream& note) {
  static std::deque<std::string> now;  // the changed arguments, alive as long as argv
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    const bool joined = a.rfind("--structure=", 0) == 0;
    if (a != "--structure" && !joined) continue;
    if (!joined && ++i == argc) break;
    const std::string name = joined ? a.substr(12) : argv[i];
    const Structure* s = registry().find(name);
    if (!s || s->spec.name == name) continue;
    note << "warpcheck: note: '" << name << "' is a former name of " << s->spec.name << ": --structure " << s->spec.name << "\n";
    argv[i] = now.emplace_back((joined ? "--structure=" : "") + s->spec.name).data();
  }
}

const Structure* structure_named(const Registry& reg, int argc, char** argv) {
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    std::string name;
    if (a == "--structure" && i + 1 < argc) name = argv[i + 1];
    else if (a.rfind("--structure=", 0) == 0) name = a.substr(12);
    else continue;
    try {
      check_value(structure_option(""), name);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
    return reg.find(name);
  }
  return nullptr;
}

Args parse_line(int argc, char** argv, const Structure& s, const CommandSpec& spec) {
  const auto table = option_table(s);
  return Args(argc, argv, 2, spec, table.get());
}

const Structure* only_structure(const Registry& reg, const Options& o) {
  return o.has_value("structure") ? reg.find(o.text("structure")) : nullptr;
}

}  // namespace warpcheck::cli
