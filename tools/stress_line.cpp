#include "tools/stress_line.hpp"

namespace warpcheck::cli {

const Structure* structure_named(const Registry& reg, int argc, char** argv) {
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    std::string name;
    if (a == "--structure" && i + 1 < argc) name = argv[i + 1];
    else if (a.rfind("--structure=", 0) == 0) name = a.substr(12);
    else continue;
    if (const Structure* s = reg.find(name)) return s;
    throw UsageError("--structure must be one of " + reg.names() + ", got '" + name + "'");
  }
  return nullptr;
}

Args parse_line(int argc, char** argv, const Structure& s, const std::set<std::string>& own_flags,
                const std::set<std::string>& own_values) {
  std::set<std::string> valued = own_values, flags = own_flags;
  valued.insert("structure");
  const auto table = option_table(s);
  for (const OptionSpec& o : *table) (o.kind == OptionKind::Flag ? flags : valued).insert(o.name);
  return Args(argc, argv, 2, valued, flags);
}

}  // namespace warpcheck::cli
