#include "stress/seam/catalogue.hpp"

#include "linearizability/json_string.hpp"

namespace warpcheck {

namespace {

std::string where(const std::vector<Applies>& applies) {
  std::string s;
  for (const Applies& a : applies) {
    s += (s.empty() ? "" : "; ") + a.option;
    for (size_t i = 0; i < a.values.size(); ++i) s += (i ? ", " : " ") + a.values[i];
  }
  return s.empty() ? "" : " [" + s + "]";
}

std::string json_list(const std::vector<std::string>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) s += ',';
    append_json_string(s, v[i]);
  }
  return s + "]";
}

std::string json_applies(const std::vector<Applies>& applies) {
  std::string s = "{";
  for (size_t i = 0; i < applies.size(); ++i) {
    if (i) s += ',';
    append_json_string(s, applies[i].option);
    s.append(":").append(json_list(applies[i].values));
  }
  return s + "}";
}

std::vector<std::string> oracle_list(Oracles o) {
  std::vector<std::string> out;
  for (uint32_t bit = 1; bit <= kOracleZombie; bit <<= 1)
    if (o & bit) out.push_back(oracle_names(bit));
  return out;
}

void catalogue_text(const Structure& st, std::ostream& out) {
  const StructureSpec& s = st.spec;
  out << s.name << " mutants (--structure " << s.name << " --mutant NAME):\n";
  for (const MutantSpec& m : s.mutants) {
    out << "  " << m.name << where(m.applies) << ": " << m.breaks;
    if (!m.benign.empty()) out << " (benign: " << m.benign << ")\n";
    else out << " (caught by " << oracle_names(m.caught_by) << (m.awaits.empty() ? "" : "; awaits " + m.awaits) << ")\n";
  }
  if (s.fixes.empty()) return;
  out << s.name << " fixes of the paper's pseudocode (--fixes NAME,...; the -fixed variants set them):\n";
  for (const FixSpec& f : s.fixes) {
    out << "  " << f.name << where(f.applies) << ": " << f.fixes;
    if (!f.benign.empty()) out << " (benign: " << f.benign << ")";
    if (!f.awaits.empty()) out << " (no finding yet: awaits " << f.awaits << ")";
    out << "\n";
  }
  if (s.findings.empty()) return;
  out << s.name << " findings, each found again by a run without its fix:\n";
  for (const FindingSpec& f : s.findings)
    out << "  " << f.name << " (without " << f.fix << "): warpcheck stress --structure " << s.name << " " << f.run
        << " (within " << f.seeds << " seeds, caught by " << oracle_names(f.caught_by) << ")\n";
}

void catalogue_json(const Structure& st, std::ostream& out) {
  const StructureSpec& s = st.spec;
  std::vector<std::string> backends;
  for (Backend b : st.backends) backends.emplace_back(backend_name(b));
  out << "{\"structure\":" << json_string(s.name) << ",\"backends\":" << json_list(backends) << ",\"mutants\":[";
  for (size_t i = 0; i < s.mutants.size(); ++i) {
    const MutantSpec& m = s.mutants[i];
    out << (i ? "," : "") << "{\"name\":" << json_string(m.name) << ",\"breaks\":" << json_string(m.breaks)
        << ",\"caught_by\":" << json_list(oracle_list(m.caught_by)) << ",\"applies\":" << json_applies(m.applies)
        << ",\"runs\":" << json_list(m.runs) << ",\"seeds\":" << m.seeds;
    if (!m.benign.empty()) out << ",\"benign\":" << json_string(m.benign);
    if (!m.awaits.empty()) out << ",\"awaits\":" << json_string(m.awaits);
    out << "}";
  }
  out << "],\"fixes\":[";
  for (size_t i = 0; i < s.fixes.size(); ++i) {
    const FixSpec& f = s.fixes[i];
    out << (i ? "," : "") << "{\"name\":" << json_string(f.name) << ",\"fixes\":" << json_string(f.fixes)
        << ",\"applies\":" << json_applies(f.applies);
    if (!f.benign.empty()) out << ",\"benign\":" << json_string(f.benign);
    if (!f.awaits.empty()) out << ",\"awaits\":" << json_string(f.awaits);
    out << "}";
  }
  out << "],\"findings\":[";
  for (size_t i = 0; i < s.findings.size(); ++i) {
    const FindingSpec& f = s.findings[i];
    out << (i ? "," : "") << "{\"name\":" << json_string(f.name) << ",\"run\":" << json_string(f.run)
        << ",\"caught_by\":" << json_list(oracle_list(f.caught_by)) << ",\"seeds\":" << f.seeds
        << ",\"fix\":" << json_string(f.fix) << "}";
  }
  out << "]}";
}

}  // namespace

void print_catalogue(const Registry& r, const Structure* only, bool json, std::ostream& out) {
  if (json) out << "[";
  bool first = true;
  for (const Structure& s : r.structures) {
    if (only && &s != only) continue;
    if (json) {
      out << (first ? "" : ",");
      catalogue_json(s, out);
    } else {
      catalogue_text(s, out);
    }
    first = false;
  }
  if (json) out << "]\n";
}

void print_stress_help(const Registry& r, const Structure* only, std::ostream& out) {
  const Structure& shown = only ? *only : r.structures.front();
  out << "usage: warpcheck stress [--structure S] [options]     run seeds, check every history, shrink and report a failure\n"
         "       warpcheck repro SEED [the stress options]      one seed again (on the GPU: --times reruns)\n"
         "       warpcheck repro DIR/history.bin                a failure again, from its history alone\n"
         "       warpcheck stress [--structure S] --list-mutants [--json]\n"
         "structures: " << r.names() << " (default " << r.structures.front().spec.name << ")\n\n"
      << "options of every run:\n";
  // A structure's own options, and its mutants and fixes (which every
  // structure has, each its own list), go under the structure.
  auto own_of = [](const Structure& s, const OptionSpec& o) {
    return o.name == "mutant" || o.name == "fixes" ||
           std::any_of(s.spec.options.begin(), s.spec.options.end(), [&](const OptionSpec& x) { return x.name == o.name; });
  };
  OptionTable common;
  const auto shown_table = option_table(shown);
  for (const OptionSpec& o : *shown_table)
    if (!own_of(shown, o)) common.push_back(o);
  print_option_help(common, shown.backends, out);
  for (const Structure& s : r.structures) {
    if (only && &s != only) continue;
    out << "\n--structure " << s.spec.name << ": " << s.spec.description << "\n  runs on: " << s.backend_list()
        << "\n  model: " << s.spec.model << "\n";
    if (!s.spec.invariants.empty()) {
      out << "  invariants checked after every run:";
      for (size_t i = 0; i < s.spec.invariants.size(); ++i) out << (i ? "; " : " ") << s.spec.invariants[i];
      out << "\n";
    }
    OptionTable own;
    const auto table = option_table(s);
    for (const OptionSpec& o : *table)
      if (own_of(s, o)) own.push_back(o);
    print_option_help(own, s.backends, out);
  }
  out << "\nexit codes: 0 every run passed, 1 a run failed, 2 a check was undecided, 3 bad input or usage\n";
}

}  // namespace warpcheck
